// RunnerSession: the judge's side of the runner protocol.
#include "run/runner_session.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fmt/format.h>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <judge_harness/protocol.hpp>
#include <mutex>
#include <optional>
#include <random>

#include "run/reply.hpp"
#include "run/wire_format.hpp"
#include "sandbox/machine_load.hpp"
#include "sandbox/sandbox.hpp"
#include "sandbox/scratch.hpp"
#include "sandbox/system_mounts.hpp"

namespace judge {
namespace {
using Clock = std::chrono::steady_clock;
using nlohmann::json;
// How long a timed call's end waits for the runner to block on its next
// read: the kernel settles a process's CPU time when it stops running, so a
// clock read while it still runs can miss up to a scheduler tick.
constexpr int kIdleWaitMs = 5;
// What the learner's code printed during one call that is kept for the report.
constexpr std::size_t kKeptPrintedBytes = 16 * 1024;
// How often a call that has not replied yet checks its limits.
constexpr long kLimitPollMs = 20;
// How many times its time limit a call may spend asleep or blocked (none
// of its threads running or runnable): a call that sleeps or blocks is
// stopped so; one that computes is stopped by its CPU time first.
constexpr int kIdleClockFactor = 2;
// How often that is sampled, at most.
constexpr double kIdleSampleMs = 10;

std::string random_nonce() {
  std::random_device device;
  std::string nonce(judge_harness::kNonceSize, '\0');
  for (char& c : nonce) c = static_cast<char>(device());
  return nonce;
}

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::string describe_exit(const ExitStatus& status) {
  if (status.exited) return fmt::format("exited with status {}", status.code);
  return fmt::format("was killed by {}", describe_signal(status.signal));
}

// The kept head of the output, and how much was dropped after it.
std::string with_dropped_note(const CapturedOutput& printed) {
  if (printed.total <= printed.head.size()) return printed.head;
  return fmt::format("{}\n[... {} more bytes of output discarded]\n", printed.head,
                     printed.total - printed.head.size());
}

// What a runner sees: the loader and the shared libraries, a few devices, the CPU list (for
// std::thread::hardware_concurrency's fallbacks), an empty /tmp (its home
// and working directory: a tmpfs of its own with a private root, else its
// scratch directory), and a /proc of its own processes.
SandboxView runner_view(const SandboxScratch& scratch) {
  SandboxView view;
  view.mounts = system_mounts(SystemNeeds::kLibraries);
  view.mounts.push_back({"/etc/localtime", "/etc/localtime", false, true});
  view.mounts.push_back({"/dev/null", "/dev/null", /*writable=*/true});
  for (const char* device : {"/dev/zero", "/dev/urandom", "/dev/random"}) view.mounts.push_back({device, device});
  view.mounts.push_back({"/sys/devices/system/cpu", "/sys/devices/system/cpu", false, true});
  if (sandbox_support().private_root)
    view.tmpfs = "/tmp";
  else
    view.mounts.push_back({scratch.work(), "/tmp", /*writable=*/true, false, /*owned_by_child=*/true});
  if (sandbox_support().fresh_proc)
    view.proc = true;
  else
    view.mounts.push_back({"/proc", "/proc", false, true});  // the host's: doctor says so
  view.working_dir = "/tmp";
  view.root_point = scratch.root();
  return view;
}

std::vector<std::string> runner_environment(const std::string& scratch_dir, const RunnerLimits& limits) {
  std::vector<std::string> env = {
      "PATH=/usr/bin:/bin", "LANG=C.UTF-8", "HOME=" + scratch_dir, "TMPDIR=" + scratch_dir,
      // As in the judge (cli/main.cpp): freed request buffers are kept for
      // the next call instead of being faulted in again.
      "GLIBC_TUNABLES=glibc.malloc.mmap_threshold=268435456:glibc.malloc.trim_threshold=1073741824",
      // Heap the runner may pre-fault before a large request: an eighth of
      // the memory limit (the harness caps it at 32 MiB).
      fmt::format("{}={}", judge_harness::kWarmupLimitVariable,
                  limits.memory_bytes > 0 ? limits.memory_bytes / 8 : std::uint64_t{32} << 20)};
  env.insert(env.end(), limits.extra_env.begin(), limits.extra_env.end());
  return env;
}

// The reply frame's payload decoded, or nullopt (with *problem set) when it
// is not the harness's: no nonce, trailing bytes, or not decodable.
std::optional<json> decode_reply(const std::string& incoming, std::size_t frame_size, const std::string& nonce,
                                 std::string* problem) {
  bool extra = incoming.size() > 4 + frame_size;
  if (extra || frame_size < nonce.size() || incoming.compare(4, nonce.size(), nonce) != 0) {
    *problem = "something other than the harness wrote to the judge's channel";
    return std::nullopt;
  }
  json reply;
  std::string why;
  std::string_view payload(incoming.data() + 4 + nonce.size(), frame_size - nonce.size());
  if (decode_from_wire(payload, &reply, &why)) return std::optional<json>(std::move(reply));
  *problem = "the runner's reply could not be decoded: " + why;
  return std::nullopt;
}

// The size a complete frame header announces; nullopt before 4 bytes.
std::optional<std::uint32_t> announced_size(const std::string& incoming) {
  if (incoming.size() < 4) return std::nullopt;
  std::uint32_t size = 0;
  for (int i = 0; i < 4; ++i) size |= static_cast<std::uint32_t>(static_cast<unsigned char>(incoming[i])) << (8 * i);
  return size;
}
}  // namespace

// One request and its reply: sends while reading, drains the learner's
// output, and ends in a CallResult however the runner behaves.
class RunnerSession::Exchange {
 public:
  Exchange(RunnerSession& session, const Request& request, int time_limit_ms, int backstop_factor)
      : session_(session),
        backstop_factor_(backstop_factor),
        request_(request),
        outgoing_(request.frame()),
        printed_(kKeptPrintedBytes),
        start_(Clock::now()),
        time_limit_ms_(static_cast<int>(time_limit_ms * session.limits_.time_scale)) {
    start_limits();
  }

  CallResult run() {
    for (;;) {
      if (std::optional<CallResult> done = complete_reply()) return std::move(*done);
      if (channel_closed_) return closed();
      if (std::optional<CallResult> stopped = over_a_limit()) return std::move(*stopped);
      if (std::optional<CallResult> failed = wait_and_transfer(kLimitPollMs)) return std::move(*failed);
    }
  }

 private:
  Child& child() { return *session_.child_; }

  // Where the call's limits count from: now, and again once the runner is
  // ready (loading it, on a busy machine, is none of the learner's time).
  void start_limits() {
    limits_start_ = last_sample_ = Clock::now();
    idle_ms_ = 0;
    cpu_start_ms_ = cpu_ms();
    // A runner not yet running its program has used none of it.
    if (cpu_start_ms_ < 0 && !session_.ready_) cpu_start_ms_ = 0;
    pid_t program = child().program_pid();
    queued_start_ms_ = program > 0 ? queued_ms_of(program) : -1;
  }

  // The runner's CPU time since the limits started; 0 when unknown.
  double cpu_used_ms() {
    double now = cpu_ms();
    return cpu_start_ms_ >= 0 && now >= cpu_start_ms_ ? now - cpu_start_ms_ : 0;
  }

  // How long the runner's threads waited for a CPU since the limits
  // started, by the kernel's count (exact for a call that ran at all). Not
  // the judge's own thread's wait as well: while a request streams through
  // the pipe both wait for a CPU at once, and the sum would count that
  // time twice (a call of 3 ms came out as 0 by the clock).
  double queued_ms() {
    pid_t program = child().program_pid();
    double now = program > 0 ? queued_ms_of(program) : -1;
    return queued_start_ms_ >= 0 && now >= queued_start_ms_ ? now - queued_start_ms_ : 0;
  }

  // Adds the time since the last sample to idle_ms_ when no thread of the
  // runner is running or waiting for a CPU now.
  void sample_idleness() {
    Clock::time_point now = Clock::now();
    double since = std::chrono::duration<double, std::milli>(now - last_sample_).count();
    if (since < kIdleSampleMs) return;
    last_sample_ = now;
    pid_t program = child().program_pid();
    if (program > 0 && !runnable(program)) idle_ms_ += since;
  }

  // The call's end when it is over a limit: its CPU budget (a timed call),
  // its CPU time, twice its limit asleep or blocked, or the clock's
  // backstop (running neither out of CPU time nor asleep: the machine kept
  // it from a CPU); nullopt while it is within them all.
  std::optional<CallResult> over_a_limit() {
    double cpu = cpu_used_ms();
    if (request_.cpu_budget_ms() > 0 && cpu > request_.cpu_budget_ms()) return out_of_cpu_budget();
    if (cpu > time_limit_ms_) return out_of_cpu_time(cpu);
    sample_idleness();
    double grace = session_.ready_ ? 0 : session_.limits_.startup_grace_ms;
    if (idle_ms_ > time_limit_ms_ * kIdleClockFactor + grace) return idle_too_long();
    double wall = std::chrono::duration<double, std::milli>(Clock::now() - limits_start_).count();
    if (wall > time_limit_ms_ * backstop_factor_ + grace) return starved(cpu, wall);
    return std::nullopt;
  }

  // The result once a whole frame has arrived; nullopt while it has not.
  std::optional<CallResult> complete_reply() {
    if (!session_.ready_ && !take_ready_frame()) return std::nullopt;
    std::optional<std::uint32_t> size = announced_size(incoming_);
    if (!size) return std::nullopt;
    if (*size > request_.reply_limit()) return too_large(*size);
    // Room for the whole frame at once (a large reply arrives in many reads).
    if (incoming_.capacity() < 4 + static_cast<std::size_t>(*size))
      incoming_.reserve(4 + static_cast<std::size_t>(*size));
    if (incoming_.size() < 4 + static_cast<std::size_t>(*size)) return std::nullopt;
    result_.wall_ms = ms_since(start_);
    if (request_.timed()) {
      child().wait_until_idle(kIdleWaitMs);
      result_.cpu_ms = cpu_used_ms();
      // Time the runner spent waiting for a CPU is the machine's, not the call's.
      result_.queued_ms = std::min(queued_ms(), result_.wall_ms);
    } else {
      result_.cpu_ms = cpu_used_ms();  // as the reply arrived, without waiting for the runner to go idle
    }
    std::string problem;
    std::optional<json> reply = decode_reply(incoming_, *size, session_.nonce_, &problem);
    if (!reply || !read_reply(*reply, &result_, &problem)) return malformed(problem);
    child().drain(&printed_, &printed_);
    result_.output = with_dropped_note(printed_);
    return std::move(result_);
  }

  // Consumes the runner's ready frame (the nonce alone) once it has all
  // arrived; false while it has not. Anything else first is left to be
  // judged as the reply.
  bool take_ready_frame() {
    const std::string& nonce = session_.nonce_;
    std::optional<std::uint32_t> size = announced_size(incoming_);
    if (!size) return false;
    if (*size != nonce.size()) return true;
    if (incoming_.size() < 4 + nonce.size()) return false;
    if (incoming_.compare(4, nonce.size(), nonce) != 0) return true;
    incoming_.erase(0, 4 + nonce.size());
    session_.ready_ = true;
    // The call's limits are the learner's call's: they count from when the
    // runner could first serve it.
    start_limits();
    return true;
  }

  // Polls the channel and the output pipes once, for at most `wait_ms`;
  // sends what it can and reads what arrived. A result when that ended the
  // call.
  std::optional<CallResult> wait_and_transfer(long wait_ms) {
    bool sending = sent_ < outgoing_.size();
    pollfd fds[3] = {{session_.channel_, static_cast<short>(POLLIN | (sending ? POLLOUT : 0)), 0},
                     {stdout_open_ ? child().stdout_fd() : -1, POLLIN, 0},
                     {stderr_open_ ? child().stderr_fd() : -1, POLLIN, 0}};
    int ready = poll(fds, 3, static_cast<int>(wait_ms));
    if (ready < 0 && errno != EINTR) return died(fmt::format("poll: {}", std::strerror(errno)));
    if (fds[1].revents || fds[2].revents) child().drain(&printed_, &printed_);
    // Closed by the learner: harmless, but poll() would report it forever.
    if ((fds[1].revents & POLLHUP) && !(fds[1].revents & POLLIN)) stdout_open_ = false;
    if ((fds[2].revents & POLLHUP) && !(fds[2].revents & POLLIN)) stderr_open_ = false;
    if ((fds[0].revents & POLLOUT) && sending) send_some();
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) return receive_available();
    return std::nullopt;
  }

  void send_some() {
    ssize_t n = send(session_.channel_, outgoing_.data() + sent_, outgoing_.size() - sent_, MSG_NOSIGNAL);
    if (n > 0)
      sent_ += static_cast<std::size_t>(n);
    else if (n < 0 && errno != EAGAIN && errno != EINTR)
      channel_closed_ = true;
  }

  std::optional<CallResult> receive_available() {
    char buffer[65536];
    for (;;) {
      ssize_t n = recv(session_.channel_, buffer, sizeof buffer, 0);
      if (n > 0) {
        incoming_.append(buffer, static_cast<std::size_t>(n));
        if (!session_.ready_) take_ready_frame();  // so that the limits below apply to the reply
        // Checked as soon as the size is known, so no more than the limit
        // (and one buffer) is ever held.
        std::optional<std::uint32_t> size = announced_size(incoming_);
        if (size && *size > request_.reply_limit()) return too_large(*size);
        if (incoming_.size() > 4 + request_.reply_limit()) return too_large(incoming_.size() - 4);
        continue;
      }
      if (n == 0 || (errno != EAGAIN && errno != EINTR)) channel_closed_ = true;
      return std::nullopt;
    }
  }

  CallResult closed() {
    // Give the process time to finish dying so we can say how it ended: on
    // a busy machine its exit (and its namespace's) may wait for a CPU.
    for (int i = 0; i < 5000 && !child().poll_exited(); ++i) usleep(1000);
    if (child().poll_exited()) return died(fmt::format("the runner {} before replying", describe_exit(child().wait())));
    return died("the runner closed the judge's channel before replying");
  }

  CallResult out_of_cpu_time(double cpu) {
    child().stop_group(session_.limits_.grace_ms);
    CallResult stopped =
        died(fmt::format("no reply after {} ms of CPU time, the time limit of this case", time_limit_ms_));
    stopped.outcome = CallResult::Outcome::kTimeout;
    stopped.cpu_ms = cpu;
    return stopped;
  }

  CallResult idle_too_long() {
    child().stop_group(session_.limits_.grace_ms);
    CallResult stopped = died(
        fmt::format("no reply after {} ms asleep or blocked, {} times the time limit of this case: it slept or waited",
                    time_limit_ms_ * kIdleClockFactor, kIdleClockFactor));
    stopped.outcome = CallResult::Outcome::kTimeout;
    return stopped;
  }

  CallResult starved(double cpu, double wall) {
    child().stop_group(session_.limits_.grace_ms);
    CallResult stopped = died(fmt::format(
        "the runner got {:.0f} ms of CPU time in {:.0f} ms by the clock, waiting for a CPU the rest of it but {:.0f} "
        "ms asleep",
        cpu, wall, idle_ms_));
    stopped.outcome = CallResult::Outcome::kStarved;
    stopped.cpu_ms = cpu;
    return stopped;
  }

  CallResult out_of_cpu_budget() {
    child().stop_group(session_.limits_.grace_ms);
    CallResult stopped = died(fmt::format("no reply after {:.0f} ms of CPU time", request_.cpu_budget_ms()));
    stopped.outcome = CallResult::Outcome::kTimeout;
    stopped.cpu_ms = request_.cpu_budget_ms();
    return stopped;
  }

  CallResult too_large(std::size_t announced) {
    CallResult result = died(fmt::format(
        "the reply to '{}' was {} bytes, more than any reply to this request can be ({} bytes: 1 MiB plus {} "
        "times the request's {} bytes); the runner was stopped",
        request_.op(), announced, request_.reply_limit(), kReplyPerRequestByte, request_.frame().size()));
    result.outcome = CallResult::Outcome::kTooLarge;
    return result;
  }

  // The runner's CPU time so far: its cgroup's count where it has one
  // (every process it made), else its process's (every thread).
  double cpu_ms() {
    if (session_.cgroup_) {
      std::optional<double> counted = session_.cgroup_->cpu_ms();
      if (counted) return *counted;
    }
    return child().program_cpu_ms();
  }

  CallResult malformed(const std::string& what_happened) {
    CallResult result = died(malformed_reply(what_happened));
    result.outcome = CallResult::Outcome::kMalformed;
    return result;
  }

  // The runner is gone or must go: how it ended, what it printed.
  CallResult died(const std::string& what_happened) {
    child().drain(&printed_, &printed_);
    if (!session_.ready_) take_ready_frame();  // received, not yet taken
    ExitStatus status = child().poll_exited() ? child().wait() : ExitStatus{};
    result_.outcome = CallResult::Outcome::kDied;
    result_.killed_by_cpu_limit = !status.exited && status.signal == SIGXCPU;
    result_.signal = status.exited ? 0 : status.signal;
    result_.peak_memory_kb = status.max_rss_kb;
    if (session_.cgroup_) {
      result_.out_of_memory = session_.cgroup_->out_of_memory();
      result_.peak_memory_kb =
          std::max(result_.peak_memory_kb, static_cast<long>(session_.cgroup_->peak_bytes() / 1024));
    }
    result_.detail = what_happened;
    result_.wall_ms = ms_since(start_);
    result_.output = with_dropped_note(printed_);
    session_.kill_runner();
    return std::move(result_);
  }

  RunnerSession& session_;
  int backstop_factor_;  // times the time limit the clock allows before the call is starved
  const Request& request_;
  const std::string& outgoing_;
  std::size_t sent_ = 0;
  std::string incoming_;
  CapturedOutput printed_;
  CallResult result_;
  Clock::time_point start_;
  int time_limit_ms_;
  Clock::time_point limits_start_;  // where the limits count from (start_limits)
  Clock::time_point last_sample_;   // of the runner's idleness
  double idle_ms_ = 0;              // asleep or blocked since limits_start_, sampled
  double cpu_start_ms_ = -1;        // the runner's CPU time then; -1 when unknown
  double queued_start_ms_ = -1;     // its threads' time waiting for a CPU then; -1 when unknown
  bool channel_closed_ = false;
  bool stdout_open_ = true, stderr_open_ = true;  // the learner may close them
};

RunnerSession::RunnerSession(std::string binary, RunnerLimits limits)
    : binary_(std::move(binary)), limits_(std::move(limits)) {}

RunnerSession::~RunnerSession() { stop(); }

bool RunnerSession::start(std::string* error) {
  {
    std::lock_guard<std::mutex> lock(group_mutex_);
    if (interrupted_) return *error = "the session was interrupted", false;
  }
  // Named after the judge's process, so a judge's leftovers can be told apart.
  static std::once_flag stale_removed;
  std::call_once(stale_removed, [] { remove_stale_scratch("/tmp", "judge-run-"); });
  scratch_ = SandboxScratch::create("/tmp", "judge-run-", error);
  if (!scratch_) return false;
  int sockets[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) != 0) {
    *error = fmt::format("socketpair: {}", std::strerror(errno));
    kill_runner();  // removes the scratch directory
    return false;
  }
  SpawnSpec spec;
  spec.argv = {binary_};
  spec.sandbox_view = runner_view(*scratch_);
  spec.env = runner_environment(path_in_sandbox(spec.sandbox_view, "/tmp"), limits_);
  spec.channel_fd = sockets[1];
  if (limits_.memory_bytes > 0) {
    std::string unused;  // a cgroup that cannot be made now falls back like a missing one
    if (cgroups_in_use())
      cgroup_ = RunnerCgroup::create(cgroup_support(), limits_.memory_bytes, spec.max_processes, &unused);
    if (cgroup_)
      spec.cgroup_procs_fds = cgroup_->procs_fds();
    else if (limits_.address_space_limit)
      spec.address_space_bytes = limits_.memory_bytes;
  }
  spec.cpu_seconds = limits_.cpu_seconds;
  spec.file_size_bytes = limits_.file_size_bytes;
  spec.sandbox = true;
  child_ = Child::spawn(spec, error);
  close(sockets[1]);
  if (!child_) {
    close(sockets[0]);
    kill_runner();  // removes the scratch directory
    return false;
  }
  {
    std::lock_guard<std::mutex> lock(group_mutex_);
    group_ = child_->pid();
    if (interrupted_) kill(-group_, SIGKILL);
  }
  channel_ = sockets[0];
  ready_ = false;
  ended_before_ready_ = false;
  fcntl(channel_, F_SETFL, O_NONBLOCK);
  nonce_ = random_nonce();
  // The greeting fits in the socket buffer, so this write cannot block.
  std::string greeting = framed(nonce_);
  if (send(channel_, greeting.data(), greeting.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(greeting.size())) {
    // Already dead (it crashed or exited before reading a byte): that is the
    // learner's runner failing, which the first call reports with its status.
    if (errno == EPIPE || errno == ECONNRESET) return true;
    *error = fmt::format("send: {}", std::strerror(errno));
    kill_runner();
    return false;
  }
  return true;
}

void RunnerSession::kill_runner() {
  {
    std::lock_guard<std::mutex> lock(group_mutex_);
    group_ = 0;
  }
  if (child_) {
    ended_before_ready_ = !ready_;
    child_->kill_group();
    child_->wait();
    child_.reset();
  }
  cgroup_.reset();  // after the child: a cgroup with processes cannot be removed
  if (channel_ >= 0) close(channel_);
  channel_ = -1;
  scratch_.reset();
}

void RunnerSession::interrupt() {
  std::lock_guard<std::mutex> lock(group_mutex_);
  interrupted_ = true;
  if (group_ > 0) kill(-group_, SIGKILL);
}

void RunnerSession::start_early() {
  std::string ignored;
  if (!child_) start(&ignored);
}

void RunnerSession::stop() {
  if (!child_) return;
  std::vector<std::uint8_t> body = json::to_cbor(json{{"op", "exit"}, {"args", json::object()}});
  std::string message = framed(std::string_view(reinterpret_cast<const char*>(body.data()), body.size()));
  send(channel_, message.data(), message.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  for (int i = 0; i < 20 && !child_->poll_exited(); ++i) usleep(1000);
  kill_runner();
}

CallResult RunnerSession::attempt(const Request& request, int time_limit_ms, int backstop_factor) {
  if (!child_) {
    std::string error;
    if (!start(&error)) {
      CallResult result;
      result.outcome = CallResult::Outcome::kNotStarted;
      result.detail = "could not start the runner: " + error;
      return result;
    }
  }
  return Exchange(*this, request, time_limit_ms, backstop_factor).run();
}

CallResult RunnerSession::call(const Request& request, int time_limit_ms) {
  {
    WorkGate::Shared shared;
    CallResult result = attempt(request, time_limit_ms, kCallBackstopFactor);
    if (result.outcome != CallResult::Outcome::kStarved) return result;
  }
  // Starved by a busy machine: once more, with nothing else of this judge
  // running, and longer.
  WorkGate::Alone alone;
  return attempt(request, time_limit_ms, kCallBackstopFactor * kAloneBackstopScale);
}

}  // namespace judge
