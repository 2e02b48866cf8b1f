// RunnerSession: the judge's side of the runner protocol.
#include "runner_session.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <judge_harness/protocol.hpp>
#include <random>

#include "wire_format.hpp"

namespace judge {
namespace {
using Clock = std::chrono::steady_clock;
using nlohmann::json;
// A reply frame up to this size gets its buffer at once; a larger one (a
// runner may announce up to kMaxFrameBytes) grows as it arrives.
constexpr std::uint32_t kReserveFrameBytes = 64u << 20;

std::string random_nonce() {
  std::random_device device;
  std::string nonce(judge_harness::kNonceSize, '\0');
  for (char& c : nonce) c = static_cast<char>(device());
  return nonce;
}

template <typename Bytes>
std::string framed(const Bytes& payload) {
  std::uint32_t size = static_cast<std::uint32_t>(payload.size());
  std::string out;
  out.reserve(4 + payload.size());
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(size >> (8 * i)));
  out.append(payload.begin(), payload.end());
  return out;
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
  return fmt::format("{}\n[... {} more bytes of output discarded]\n", printed.head, printed.total - printed.head.size());
}

// Reads the child's output pipes into one capture, stdout first.
void drain_output(Child& child, CapturedOutput* capture) { child.drain(capture, capture); }
}  // namespace

RunnerSession::RunnerSession(std::string binary, RunnerLimits limits)
    : binary_(std::move(binary)), limits_(limits) {}

RunnerSession::~RunnerSession() { stop(); }

bool RunnerSession::start(std::string* error) {
  // Named after the judge's process, so a judge's leftovers can be told apart.
  std::string scratch_template = fmt::format("/tmp/judge-run-{}-XXXXXX", getpid());
  if (!mkdtemp(scratch_template.data())) {
    *error = fmt::format("mkdtemp: {}", std::strerror(errno));
    return false;
  }
  scratch_dir_ = scratch_template.c_str();
  int sockets[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) != 0) {
    *error = fmt::format("socketpair: {}", std::strerror(errno));
    kill_runner();  // removes the scratch directory
    return false;
  }
  SpawnSpec spec;
  spec.argv = {binary_};
  spec.env = {"PATH=/usr/bin:/bin", "LANG=C.UTF-8", "HOME=" + scratch_dir_, "TMPDIR=" + scratch_dir_,
              // As in the judge (main.cpp): freed request buffers are kept
              // for the next call instead of being faulted in again.
              "GLIBC_TUNABLES=glibc.malloc.mmap_threshold=268435456:glibc.malloc.trim_threshold=1073741824",
              // Heap the runner may pre-fault before a large request: an
              // eighth of the memory limit (the harness caps it at 32 MiB).
              fmt::format("{}={}", judge_harness::kWarmupLimitVariable,
                          limits_.memory_bytes > 0 ? limits_.memory_bytes / 8 : std::uint64_t{32} << 20)};
  spec.env.insert(spec.env.end(), limits_.extra_env.begin(), limits_.extra_env.end());
  spec.working_dir = scratch_dir_;
  spec.channel_fd = sockets[1];
  if (limits_.memory_bytes > 0) {
    std::string unused;  // a cgroup that cannot be made now falls back like a missing one
    if (std::optional<CgroupLocation> parent = memory_cgroup_parent())
      cgroup_ = MemoryCgroup::create(*parent, limits_.memory_bytes, &unused);
    if (cgroup_) spec.cgroup_procs_fd = cgroup_->procs_fd();
    else if (limits_.address_space_limit) spec.address_space_bytes = limits_.memory_bytes;
  }
  spec.cpu_seconds = limits_.cpu_seconds;
  spec.file_size_bytes = limits_.file_size_bytes;
  spec.sandbox = true;
  spec.sandbox_paths = default_sandbox_paths(scratch_dir_, binary_);
  child_ = Child::spawn(spec, error);
  close(sockets[1]);
  if (!child_) {
    close(sockets[0]);
    kill_runner();  // removes the scratch directory
    return false;
  }
  channel_ = sockets[0];
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
  if (child_) {
    child_->kill_group();
    child_->wait();
    child_.reset();
  }
  cgroup_.reset();  // after the child: a cgroup with processes cannot be removed
  if (channel_ >= 0) close(channel_);
  channel_ = -1;
  if (!scratch_dir_.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(scratch_dir_, ignored);
    scratch_dir_.clear();
  }
}

void RunnerSession::start_early() {
  std::string ignored;
  if (!child_) start(&ignored);
}

void RunnerSession::stop() {
  if (!child_) return;
  json request = {{"op", "exit"}, {"args", json::object()}};
  std::vector<std::uint8_t> body = json::to_cbor(request);
  std::string message = framed(body);
  send(channel_, message.data(), message.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  for (int i = 0; i < 20 && !child_->poll_exited(); ++i) usleep(1000);
  kill_runner();
}

Request::Request(std::string op, const json& args)
    : op_(std::move(op)), frame_(framed(json::to_cbor(json{{"op", op_}, {"args", with_typed_arrays(args)}}))) {}

CallResult RunnerSession::call(const std::string& op, const json& args, int time_limit_ms) {
  return call(Request(op, args), time_limit_ms);
}

CallResult RunnerSession::call(const Request& request, int time_limit_ms) {
  CallResult result;
  if (!child_) {
    std::string error;
    if (!start(&error)) {
      result.outcome = CallResult::Outcome::kHarnessError;
      result.detail = "could not start the runner: " + error;
      return result;
    }
  }
  const std::string& outgoing = request.frame();
  std::size_t sent = 0;
  std::string incoming;
  CapturedOutput printed(16 * 1024);
  auto start = Clock::now();
  time_limit_ms = static_cast<int>(time_limit_ms * limits_.time_scale);
  auto deadline = start + std::chrono::milliseconds(time_limit_ms);
  bool channel_closed = false;
  bool stdout_open = true, stderr_open = true;  // the learner may close them

  auto finish_died = [&](const std::string& what_happened) {
    drain_output(*child_, &printed);
    ExitStatus status = child_->poll_exited() ? child_->wait() : ExitStatus{};
    result.outcome = CallResult::Outcome::kDied;
    result.killed_by_cpu_limit = !status.exited && status.signal == SIGXCPU;
    result.signal = status.exited ? 0 : status.signal;
    result.peak_memory_kb = status.max_rss_kb;
    if (cgroup_) {
      result.out_of_memory = cgroup_->out_of_memory();
      result.peak_memory_kb = std::max(result.peak_memory_kb, static_cast<long>(cgroup_->peak_bytes() / 1024));
    }
    result.detail = what_happened;
    result.wall_ms = ms_since(start);
    result.output = with_dropped_note(printed);
    output_bytes_ += printed.total;
    kill_runner();
    return result;
  };

  auto finish_malformed = [&](const std::string& what_happened) {
    CallResult malformed = finish_died(what_happened);
    malformed.outcome = CallResult::Outcome::kMalformed;
    return malformed;
  };

  for (;;) {
    // A complete reply frame?
    if (incoming.size() >= 4) {
      std::uint32_t size = 0;
      for (int i = 0; i < 4; ++i) size |= static_cast<std::uint32_t>(static_cast<unsigned char>(incoming[i])) << (8 * i);
      if (size > judge_harness::kMaxFrameBytes) return finish_malformed("the runner sent a malformed reply (oversized frame)");
      // Room for the whole frame at once (a large reply arrives in many reads).
      if (size <= kReserveFrameBytes && incoming.capacity() < 4 + static_cast<std::size_t>(size))
        incoming.reserve(4 + static_cast<std::size_t>(size));
      if (incoming.size() >= 4 + static_cast<std::size_t>(size)) {
        result.wall_ms = ms_since(start);
        bool extra = incoming.size() > 4 + static_cast<std::size_t>(size);
        if (extra || size < nonce_.size() || incoming.compare(4, nonce_.size(), nonce_) != 0) {
          CallResult malformed = finish_died("something other than the harness wrote to the judge's channel");
          malformed.outcome = CallResult::Outcome::kMalformed;
          return malformed;
        }
        json reply;
        bool decoded = false;
        try {
          reply = json::from_cbor(incoming.begin() + static_cast<long>(4 + nonce_.size()), incoming.end(), true, true,
                                  json::cbor_tag_handler_t::store);
          decoded = expand_typed_arrays(&reply);
        } catch (const json::exception&) {
        }
        if (!decoded) {
          CallResult malformed = finish_died("the runner's reply could not be decoded");
          malformed.outcome = CallResult::Outcome::kMalformed;
          return malformed;
        }
        drain_output(*child_, &printed);
        result.output = with_dropped_note(printed);
        output_bytes_ += printed.total;
        if (reply.contains("cpu_ns") && reply["cpu_ns"].is_number()) result.cpu_ms = reply["cpu_ns"].get<double>() / 1e6;
        if (reply.contains("value")) {
          result.outcome = CallResult::Outcome::kValue;
          result.value = std::move(reply["value"]);
        } else if (reply.contains("exception")) {
          result.outcome = CallResult::Outcome::kException;
          result.exception_kind = reply.value("exception", "");
          result.exception_type = reply.value("type", "");
          result.what = reply.value("what", "");
        } else {
          result.outcome = CallResult::Outcome::kHarnessError;
          result.detail = reply.value("harness_error", "reply without a value");
        }
        return result;
      }
    }
    if (channel_closed) {
      // Give the process a moment to finish dying so we can say how it ended.
      for (int i = 0; i < 200 && !child_->poll_exited(); ++i) usleep(1000);
      if (child_->poll_exited())
        return finish_died(fmt::format("the runner {} before replying", describe_exit(child_->wait())));
      return finish_died("the runner closed the judge's channel before replying");
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      // Polite first, then certain: the whole group goes.
      kill(-child_->pid(), SIGTERM);
      usleep(static_cast<useconds_t>(limits_.grace_ms) * 1000);
      CallResult timeout = finish_died(fmt::format("no reply within {} ms", time_limit_ms));
      timeout.outcome = CallResult::Outcome::kTimeout;
      return timeout;
    }
    pollfd fds[3] = {{channel_, static_cast<short>(POLLIN | (sent < outgoing.size() ? POLLOUT : 0)), 0},
                     {stdout_open ? child_->stdout_fd() : -1, POLLIN, 0},
                     {stderr_open ? child_->stderr_fd() : -1, POLLIN, 0}};
    int ready = poll(fds, 3, static_cast<int>(std::min<long>(left, 1000)));
    if (ready < 0 && errno != EINTR) return finish_died(fmt::format("poll: {}", std::strerror(errno)));
    if (fds[1].revents || fds[2].revents) drain_output(*child_, &printed);
    // Closed by the learner: harmless, but poll() would report it forever.
    if ((fds[1].revents & POLLHUP) && !(fds[1].revents & POLLIN)) stdout_open = false;
    if ((fds[2].revents & POLLHUP) && !(fds[2].revents & POLLIN)) stderr_open = false;
    if (fds[0].revents & POLLOUT && sent < outgoing.size()) {
      ssize_t n = send(channel_, outgoing.data() + sent, outgoing.size() - sent, MSG_NOSIGNAL);
      if (n > 0) sent += static_cast<std::size_t>(n);
      else if (n < 0 && errno != EAGAIN && errno != EINTR) channel_closed = true;
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      char buffer[65536];
      for (;;) {
        ssize_t n = recv(channel_, buffer, sizeof buffer, 0);
        if (n > 0) {
          incoming.append(buffer, static_cast<std::size_t>(n));
          if (incoming.size() > judge_harness::kMaxFrameBytes + 4u)
            return finish_malformed("the runner sent a malformed reply (oversized frame)");
          continue;
        }
        if (n == 0 || (errno != EAGAIN && errno != EINTR)) channel_closed = true;
        break;
      }
    }
  }
}

}  // namespace judge
