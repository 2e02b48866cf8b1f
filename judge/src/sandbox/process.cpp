// Child processes: fork/exec with limits, draining, killing, reaping.
#include "sandbox/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <tuple>
#include <utility>

#include "sandbox/cleanup.hpp"
#include "sandbox/identity.hpp"
#include "sandbox/landlock.hpp"
#include "sandbox/namespace_waiters.hpp"
#include "sandbox/sandbox.hpp"
#include "sandbox/view.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"

namespace judge {
namespace {
namespace fs = std::filesystem;

void set_limit(int resource, std::uint64_t value) {
  rlimit limit{static_cast<rlim_t>(value), static_cast<rlim_t>(value)};
  setrlimit(resource, &limit);
}

// Everything the child needs, prepared before fork: between fork and exec
// only system calls happen (the judge has threads; malloc could deadlock).
struct ChildPlan {
  char* const* argv;
  char* const* envp;
  int out_write, err_write, error_pipe;
  bool namespaces = false;
  const SandboxSupport* support = nullptr;
  uid_t outer_uid = 0;
  gid_t outer_gid = 0;
  bool drop_privileges = false;
  bool cap_processes = false;  // RLIMIT_NPROC without dropping: a user namespace counts them apart
  uid_t runner_uid = 0;
  gid_t runner_gid = kNobody;
  // Not root: the parent maps runner_uid and runner_gid (subordinate ids)
  // when asked on map_request, and answers on map_done.
  int map_request = -1, map_done = -1;
  int landlock_abi = 0;
  const PreparedView* view = nullptr;     // sandboxed children only
  const SyscallFilter* filter = nullptr;  // sandboxed children, where seccomp is available
  int exec_fd = -1;
  // judge-sandbox-init, opened before fork (-1 where it is missing): the
  // processes that wait in namespaces become it (namespace_waiters.hpp).
  int init_fd = -1;
};

void close_descriptors_range(unsigned first, unsigned last) {
  if (syscall(SYS_close_range, first, last, 0) == 0) return;
  rlimit limit{};
  getrlimit(RLIMIT_NOFILE, &limit);
  unsigned end = std::min<unsigned long>(last, limit.rlim_cur == RLIM_INFINITY ? 65536 : limit.rlim_cur - 1);
  for (unsigned fd = first; fd <= end && fd >= first; ++fd) close(static_cast<int>(fd));
}

// What the child sends back when a call fails before exec: the call's name
// and its errno. Written in one write() of fewer than PIPE_BUF bytes, so the
// parent reads it whole.
struct ChildFailure {
  char call[24];
  int error;
};

[[noreturn]] void fail_in_child(int error_pipe, const char* call) {
  ChildFailure failure{};
  failure.error = errno;
  strncpy(failure.call, call, sizeof failure.call - 1);
  [[maybe_unused]] ssize_t n = write(error_pipe, &failure, sizeof failure);
  _exit(127);
}

// Closes every descriptor from `first` up, except those in `keep` (-1
// entries are ignored). close_range (Linux 5.9) covers descriptors above
// any fixed bound; a loop to the descriptor limit where it is missing.
void close_descriptors_from(int first, std::initializer_list<int> kept_list) {
  int keep[6] = {-1, -1, -1, -1, -1, -1};
  std::copy_n(kept_list.begin(), std::min<std::size_t>(kept_list.size(), 6), keep);
  std::sort(keep, keep + 6);
  unsigned from = static_cast<unsigned>(first);
  for (int kept : keep) {
    if (kept < first || static_cast<unsigned>(kept) < from) continue;
    if (static_cast<unsigned>(kept) > from) close_descriptors_range(from, static_cast<unsigned>(kept) - 1);
    from = static_cast<unsigned>(kept) + 1;
  }
  close_descriptors_range(from, ~0u);
}

[[noreturn]] void become_program(const SpawnSpec& spec, const ChildPlan& plan) {
  set_limit(RLIMIT_CORE, 0);
  if (spec.address_space_bytes) set_limit(RLIMIT_AS, spec.address_space_bytes);
  if (spec.cpu_seconds) {
    rlimit cpu{static_cast<rlim_t>(spec.cpu_seconds), static_cast<rlim_t>(spec.cpu_seconds + 1)};
    setrlimit(RLIMIT_CPU, &cpu);
  }
  if (spec.file_size_bytes) set_limit(RLIMIT_FSIZE, spec.file_size_bytes);
  if (plan.view && plan.view->private_root()) {
    const char* failed_call = "";
    if (!enter_private_root(*plan.view, &failed_call)) fail_in_child(plan.error_pipe, failed_call);
  } else {
    const char* working_dir = plan.view ? plan.view->working_dir() : spec.working_dir.c_str();
    if (*working_dir && chdir(working_dir) != 0) fail_in_child(plan.error_pipe, "chdir");
  }
  int ruleset = -1;
  if (plan.landlock_abi > 0) {
    ruleset = sandbox_child::filesystem_ruleset(plan.landlock_abi, plan.view->readable(), plan.view->writable(),
                                                plan.exec_fd);
    if (ruleset < 0) fail_in_child(plan.error_pipe, "landlock");
  }
  // Set inside the child's user namespace, where there is one, so that it
  // counts that namespace's processes (SandboxSupport::namespace_process_cap).
  if (plan.drop_privileges || plan.cap_processes)
    set_limit(RLIMIT_NPROC, static_cast<std::uint64_t>(spec.max_processes));
  if (plan.drop_privileges && !sandbox_child::drop_privileges(plan.runner_uid, plan.runner_gid))
    fail_in_child(plan.error_pipe, "setresuid");
  if (ruleset >= 0 && !sandbox_child::enforce_ruleset(ruleset)) fail_in_child(plan.error_pipe, "landlock");
  if (plan.filter && !sandbox_child::load_filter(*plan.filter)) fail_in_child(plan.error_pipe, "seccomp");
  signal(SIGPIPE, SIG_DFL);
  if (plan.exec_fd >= 0) {
    syscall(SYS_execveat, plan.exec_fd, "", plan.argv, plan.envp, AT_EMPTY_PATH);
    fail_in_child(plan.error_pipe, "execveat");
  }
  execvpe(plan.argv[0], plan.argv, plan.envp);
  fail_in_child(plan.error_pipe, "execvp");
}

// Writes `value` in decimal into `out` (at least 12 bytes) without
// allocating, as code between fork and exec must.
void format_decimal(long value, char* out) {
  char digits[24];
  int count = 0;
  do digits[count++] = static_cast<char>('0' + value % 10);
  while ((value /= 10) > 0 && count < 20);
  for (int i = 0; i < count; ++i) out[i] = digits[count - 1 - i];
  out[count] = '\0';
}

// Becomes judge-sandbox-init in `role` (namespace_waiters.hpp), waiting for
// `pid` with `fd`; returns only where that program could not be executed,
// and the caller then waits as this fork of the judge.
void become_waiter(int init_fd, const char* role, pid_t pid, int fd) {
  if (init_fd < 0) return;
  char pid_text[24], fd_text[24];
  format_decimal(pid, pid_text);
  format_decimal(fd, fd_text);
  char* argv[] = {const_cast<char*>("judge-sandbox-init"), const_cast<char*>(role), pid_text, fd_text, nullptr};
  char* envp[] = {nullptr};
  syscall(SYS_execveat, init_fd, "", argv, envp, AT_EMPTY_PATH);
}

// Inside new namespaces: this process stays outside them and mirrors how
// the program ended; a second process is PID 1 of the new namespace (its
// exit kills everything left inside) and a third runs the program.
[[noreturn]] void run_in_namespaces(const SpawnSpec& spec, const ChildPlan& plan) {
  if (!sandbox_child::enter_namespaces(*plan.support, plan.view->private_root(), plan.outer_uid, plan.outer_gid,
                                       plan.map_request, plan.map_done))
    fail_in_child(plan.error_pipe, "unshare");
  // Mapped to subordinate ids: become them now, so that the view is built
  // by an id its namespace knows (the capabilities stay until exec).
  if (plan.map_request >= 0 && !sandbox_child::drop_privileges(plan.runner_uid, plan.runner_gid))
    fail_in_child(plan.error_pipe, "setresuid");
  int status_pipe[2];
  if (pipe(status_pipe) != 0) fail_in_child(plan.error_pipe, "pipe");
  pid_t init = fork();
  if (init < 0) fail_in_child(plan.error_pipe, "fork");
  if (init == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    close(status_pipe[0]);
    // vfork: the program borrows this process's memory until its exec
    // (become_program only makes system calls and never returns), instead
    // of copying the page tables of what is still a copy of the judge. The
    // first fork above cannot be one: the kernel refuses to share memory
    // with a process in another PID namespace.
    pid_t program = vfork();
    if (program < 0) fail_in_child(plan.error_pipe, "vfork");
    if (program == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      close(status_pipe[1]);
      become_program(spec, plan);
    }
    close_descriptors_from(0, {status_pipe[1], plan.init_fd});
    become_waiter(plan.init_fd, "pid1", program, status_pipe[1]);
    sandbox_wait::serve_as_pid1(program, status_pipe[1]);
  }
  close(status_pipe[1]);
  close_descriptors_from(0, {status_pipe[0], plan.init_fd});
  become_waiter(plan.init_fd, "outer", init, status_pipe[0]);
  sandbox_wait::serve_as_outer(init, status_pipe[0]);
}

// Runs in the child after fork: its group, standard descriptors, channel
// and cgroup, then the program (in namespaces when sandboxed).
[[noreturn]] void exec_child(const SpawnSpec& spec, const ChildPlan& plan) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  // Before anything else (and while still the judge's user, who may write
  // there): everything this child starts is then counted in the cgroup.
  for (int procs_fd : spec.cgroup_procs_fds)
    if (write(procs_fd, "0", 1) != 1) fail_in_child(plan.error_pipe, "cgroup");
  setpgid(0, 0);
  int devnull = open("/dev/null", O_RDONLY);
  if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(plan.out_write, 1) < 0 || dup2(plan.err_write, 2) < 0)
    fail_in_child(plan.error_pipe, "dup2");
  if (spec.channel_fd >= 0) {
    if (spec.channel_fd == 3) {
      fcntl(3, F_SETFD, 0);
    } else if (dup2(spec.channel_fd, 3) < 0) {
      fail_in_child(plan.error_pipe, "dup2");
    }
  }
  // Keep the error pipe (close-on-exec) so exec failures reach the parent;
  // the cgroup's descriptor goes too.
  close_descriptors_from(spec.channel_fd >= 0 ? 4 : 3,
                         {plan.error_pipe, plan.exec_fd, plan.map_request, plan.map_done, plan.init_fd});
  if (!plan.namespaces) become_program(spec, plan);
  run_in_namespaces(spec, plan);
}

std::vector<char*> c_strings(const std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (const std::string& s : strings) out.push_back(const_cast<char*>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

void read_available(int fd, CapturedOutput* sink) {
  char buffer[65536];
  for (;;) {
    ssize_t n = read(fd, buffer, sizeof buffer);
    if (n > 0) {
      if (sink) sink->append(buffer, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return;
  }
}

ExitStatus to_exit_status(int status, const rusage& usage, long inherited_rss_kb) {
  ExitStatus out;
  out.exited = WIFEXITED(status);
  out.code = out.exited ? WEXITSTATUS(status) : 0;
  out.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  out.cpu_seconds =
      usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
  out.max_rss_kb = usage.ru_maxrss > inherited_rss_kb ? usage.ru_maxrss : 0;
  return out;
}
// The child's stdout, stderr and status pipes; whatever is not taken is
// closed on destruction.
struct Pipes {
  int out[2] = {-1, -1}, err[2] = {-1, -1}, status[2] = {-1, -1};
  bool open(std::string* error) {
    if (pipe2(out, O_CLOEXEC) == 0 && pipe2(err, O_CLOEXEC) == 0 && pipe2(status, O_CLOEXEC) == 0) return true;
    *error = fmt::format("pipe2: {}", std::strerror(errno));
    return false;
  }
  void close_child_ends() {
    for (int* fd : {&out[1], &err[1], &status[1]}) close_one(fd);
  }
  int take(int* fd) { return std::exchange(*fd, -1); }
  ~Pipes() {
    for (int* fd : {&out[0], &out[1], &err[0], &err[1], &status[0], &status[1]}) close_one(fd);
  }
  static void close_one(int* fd) {
    if (*fd >= 0) close(*fd);
    *fd = -1;
  }
};

// The handshake by which a child in a new user namespace asks the parent to
// map it to subordinate ids (identity.hpp).
struct IdMapPipes {
  int request[2] = {-1, -1}, done[2] = {-1, -1};
  bool open(ChildPlan* plan, std::string* error) {
    if (pipe2(request, O_CLOEXEC) != 0 || pipe2(done, O_CLOEXEC) != 0) {
      *error = fmt::format("pipe2: {}", std::strerror(errno));
      return false;
    }
    plan->map_request = request[1];
    plan->map_done = done[0];
    return true;
  }
  // In the parent after fork: waits for the child's request (none when it
  // failed first) and maps it. Returns what went wrong, if anything.
  std::string serve(pid_t child, const ChildPlan& plan) {
    if (request[0] < 0) return "";
    close_one(&request[1]);
    close_one(&done[0]);
    char asked = 0;
    ssize_t n;
    do n = read(request[0], &asked, 1);
    while (n < 0 && errno == EINTR);
    if (n != 1) return "";
    std::string error;
    bool mapped = map_subordinate_ids(*plan.support->subordinate, child, plan.runner_uid, plan.runner_gid, &error);
    [[maybe_unused]] ssize_t sent = write(done[1], mapped ? "1" : "0", 1);
    return error;
  }
  ~IdMapPipes() {
    for (int* fd : {&request[0], &request[1], &done[0], &done[1]}) close_one(fd);
  }
  static void close_one(int* fd) {
    if (*fd >= 0) close(*fd);
    *fd = -1;
  }
};

// judge-sandbox-init beside the running executable (the judge's build or
// install puts it beside `judge`); empty where it is not there, and the
// waiting processes stay forks of the judge.
const std::string& sandbox_init_program() {
  static const std::string path = [] {
    std::error_code error;
    fs::path beside = fs::read_symlink("/proc/self/exe", error).parent_path() / "judge-sandbox-init";
    return !error && access(beside.c_str(), X_OK) == 0 ? beside.string() : std::string();
  }();
  return path;
}

// The parent's copies of the plan's descriptors, closed once the child has
// its own (or was never started).
struct PlanDescriptors {
  ChildPlan* plan;
  ~PlanDescriptors() {
    for (int fd : {plan->exec_fd, plan->init_fd})
      if (fd >= 0) close(fd);
  }
};

// Fills in the sandbox's part of `plan`, which points into `view`; the
// ids the child will run as are leased to `ids`.
bool plan_sandbox(const SpawnSpec& spec, ChildPlan* plan, std::optional<PreparedView>* view, RunnerIds* ids,
                  std::string* error) {
  const SandboxSupport& support = sandbox_support();
  plan->support = &support;
  plan->namespaces = support.namespaces;
  plan->outer_uid = getuid();
  plan->outer_gid = getgid();
  plan->drop_privileges = support.drop_to_nobody;
  try {
    if (support.drop_to_nobody) *ids = take_runner_ids();
    if (support.subordinate && spec.subordinate_user && support.namespaces) {
      plan->drop_privileges = true;
      *ids = take_subordinate_ids(*support.subordinate);
    }
  } catch (const JudgeFault& fault) {
    *error = fault.message;
    return false;
  }
  if (ids->held()) std::tie(plan->runner_uid, plan->runner_gid) = std::make_pair(ids->uid(), ids->gid());
  plan->cap_processes = support.namespaces && support.namespace_process_cap;
  plan->landlock_abi = support.landlock_abi;
  view->emplace(spec.sandbox_view, support.private_root);
  plan->view = &**view;
  const SyscallFilter& filter = syscall_filter(spec.syscall_filter);
  if (!filter.program.empty()) plan->filter = &filter;
  // Opened now, while the judge's user can reach it through every directory.
  plan->exec_fd = open(spec.argv[0].c_str(), O_PATH | O_CLOEXEC);
  if (plan->exec_fd < 0) {
    *error = fmt::format("open {}: {}", spec.argv[0], std::strerror(errno));
    return false;
  }
  if (plan->namespaces) {
    const std::string& init = sandbox_init_program();
    if (!init.empty()) plan->init_fd = open(init.c_str(), O_PATH | O_CLOEXEC);
  }
  if (!support.drop_to_nobody) return true;
  for (const SandboxMount& mount : spec.sandbox_view.mounts) {
    if (!mount.owned_by_child || chown(mount.host.c_str(), plan->runner_uid, kNobody) == 0) continue;
    *error = fmt::format("chown {}: {}", mount.host, std::strerror(errno));
    return false;
  }
  return true;
}
}  // namespace

void CapturedOutput::append(const char* data, std::size_t size) {
  total += size;
  if (head.size() < cap) head.append(data, std::min(size, cap - head.size()));
}

std::unique_ptr<Child> Child::spawn(const SpawnSpec& spec, std::string* error) {
  Pipes pipes;
  if (!pipes.open(error)) return nullptr;
  std::vector<char*> argv = c_strings(spec.argv);
  std::vector<char*> envp = c_strings(spec.env);
  ChildPlan plan{argv.data(), envp.data(), pipes.out[1], pipes.err[1], pipes.status[1]};
  PlanDescriptors plan_descriptors{&plan};
  std::optional<PreparedView> view;
  RunnerIds ids;
  if (spec.sandbox && !plan_sandbox(spec, &plan, &view, &ids, error)) return nullptr;
  IdMapPipes map_pipes;
  if (plan.drop_privileges && !plan.support->drop_to_nobody && !map_pipes.open(&plan, error)) return nullptr;
  rusage own{};
  getrusage(RUSAGE_SELF, &own);
  pid_t pid = fork();
  if (pid < 0) {
    *error = fmt::format("fork: {}", std::strerror(errno));
    return nullptr;
  }
  if (pid == 0) exec_child(spec, plan);
  setpgid(pid, pid);  // also in the parent, so a kill right after spawn reaches the group
  register_process_group(pid);
  pipes.close_child_ends();
  std::string map_error = map_pipes.serve(pid, plan);
  ChildFailure failure{};
  ssize_t n;
  do n = read(pipes.status[0], &failure, sizeof failure);
  while (n < 0 && errno == EINTR);
  std::unique_ptr<Child> child(new Child());
  child->pid_ = pid;
  child->ids_ = std::move(ids);
  child->inherited_rss_kb_ = own.ru_maxrss;
  child->namespaced_ = plan.namespaces;
  child->stdout_fd_ = pipes.take(&pipes.out[0]);
  child->stderr_fd_ = pipes.take(&pipes.err[0]);
  fcntl(child->stdout_fd_, F_SETFL, O_NONBLOCK);
  fcntl(child->stderr_fd_, F_SETFL, O_NONBLOCK);
  if (n > 0) {
    child->wait();
    failure.call[sizeof failure.call - 1] = '\0';
    std::string subject = std::string(failure.call) == "chdir" ? spec.working_dir
                          : spec.argv.empty()                  ? ""
                                                               : spec.argv[0];
    *error = fmt::format("{} {}: {} (in the child, before exec){}", failure.call, subject,
                         n == static_cast<ssize_t>(sizeof failure) ? std::strerror(failure.error) : "unknown error",
                         map_error.empty() ? "" : "; " + map_error);
    return nullptr;
  }
  return child;
}

Child::~Child() {
  if (!reaped_) {
    kill_group();
    wait();
  }
  unregister_process_group(pid_);
  if (stdout_fd_ >= 0) close(stdout_fd_);
  if (stderr_fd_ >= 0) close(stderr_fd_);
}

void Child::drain(CapturedOutput* out, CapturedOutput* err) {
  read_available(stdout_fd_, out);
  read_available(stderr_fd_, err);
}

void Child::kill_group() {
  if (pid_ > 0) {
    kill(-pid_, SIGKILL);
    if (!reaped_) kill(pid_, SIGKILL);
  }
}

namespace {
// The one child of `parent` (a process of the judge's view): from
// /proc/PID/task/PID/children where the kernel has it, else by scanning
// every process's parent.
pid_t only_child_of(pid_t parent) {
  std::string listed;
  {
    std::ifstream in(fmt::format("/proc/{}/task/{}/children", parent, parent));
    if (in) std::getline(in, listed);
  }
  if (!listed.empty()) return static_cast<pid_t>(std::atol(listed.c_str()));
  std::error_code error;
  for (const std::filesystem::directory_entry& entry : std::filesystem::directory_iterator("/proc", error)) {
    std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    // read_file_or_empty: a process that exits while read fails the read
    // with ESRCH, which an istreambuf_iterator would throw.
    std::string stat = read_file_or_empty((entry.path() / "stat").string());
    std::size_t close = stat.rfind(')');
    if (close == std::string::npos) continue;
    char state = 0;
    long ppid = 0;
    if (std::sscanf(stat.c_str() + close + 1, " %c %ld", &state, &ppid) == 2 && ppid == parent)
      return static_cast<pid_t>(std::atol(name.c_str()));
  }
  return -1;
}
}  // namespace

pid_t Child::program_pid() {
  if (program_pid_ > 0 || reaped_) return reaped_ ? -1 : program_pid_;
  if (!namespaced_) return program_pid_ = pid_;
  pid_t init = only_child_of(pid_);  // PID 1 of the child's namespace
  if (init > 0) program_pid_ = only_child_of(init);
  return program_pid_;
}

double Child::program_cpu_ms() {
  pid_t program = program_pid();
  clockid_t clock;
  timespec time{};
  if (program <= 0 || clock_getcpuclockid(program, &clock) != 0 || clock_gettime(clock, &time) != 0) return -1;
  return static_cast<double>(time.tv_sec) * 1e3 + static_cast<double>(time.tv_nsec) / 1e6;
}

namespace {
// The state letter of /proc/PID/stat ('R' running, 'S' sleeping, ...); 0
// when unreadable.
char process_state(pid_t pid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
  std::string stat = read_file_or_empty(path);
  std::size_t close = stat.rfind(')');
  return close == std::string::npos || close + 2 >= stat.size() ? 0 : stat[close + 2];
}
}  // namespace

void Child::wait_until_idle(int max_ms) {
  pid_t program = program_pid();
  if (program <= 0) return;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(max_ms);
  while (process_state(program) == 'R' && std::chrono::steady_clock::now() < deadline) usleep(50);
}

void Child::stop_group(int grace_ms) {
  if (pid_ <= 0 || reaped_) return kill_group();
  kill(-pid_, SIGTERM);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(grace_ms);
  while (!poll_exited() && std::chrono::steady_clock::now() < deadline) usleep(1000);
  kill_group();
}

ExitStatus Child::wait() {
  if (reaped_) return status_;
  int status = 0;
  rusage usage{};
  pid_t got;
  do got = wait4(pid_, &status, 0, &usage);
  while (got < 0 && errno == EINTR);
  reaped_ = true;
  status_ = to_exit_status(status, usage, inherited_rss_kb_);
  // Anything the child left running in its group goes with it.
  kill(-pid_, SIGKILL);
  return status_;
}

bool Child::poll_exited() {
  if (reaped_) return true;
  int status = 0;
  rusage usage{};
  pid_t got = wait4(pid_, &status, WNOHANG, &usage);
  if (got == pid_) {
    reaped_ = true;
    status_ = to_exit_status(status, usage, inherited_rss_kb_);
    kill(-pid_, SIGKILL);
  }
  return reaped_;
}

CommandResult run_command(const SpawnSpec& spec, int timeout_ms, std::size_t output_cap, const CancelSignal* cancel,
                          const std::function<bool()>& over_cpu) {
  CommandResult result;
  if (cancel && cancel->raised()) return result.cancelled = true, result;
  std::unique_ptr<Child> child = Child::spawn(spec, &result.error);
  if (!child) return result;
  result.started = true;
  CapturedOutput output(output_cap);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  auto stop_early = [&] {
    if (cancel && cancel->raised()) {
      result.cancelled = true;
    } else if (over_cpu && over_cpu()) {
      result.over_cpu = true;
    } else if (std::chrono::steady_clock::now() >= deadline) {
      result.timed_out = true;
    } else {
      return false;
    }
    child->kill_group();
    return true;
  };
  bool out_open = true, err_open = true;
  while (out_open || err_open) {
    pollfd fds[3] = {
        {child->stdout_fd(), POLLIN, 0}, {child->stderr_fd(), POLLIN, 0}, {cancel ? cancel->fd() : -1, POLLIN, 0}};
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (stop_early()) break;
    long wait_ms = std::max<long>(left.count(), 0);
    if (over_cpu) wait_ms = std::min<long>(wait_ms, 100);
    int ready = poll(fds, 3, static_cast<int>(wait_ms));
    if (ready < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buffer[65536];
      ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0)
        output.append(buffer, static_cast<std::size_t>(n));
      else if (n == 0 || errno != EAGAIN)
        (i == 0 ? out_open : err_open) = false;
    }
  }
  // Both pipes closed: the command may still be running without them.
  while (!result.timed_out && !result.cancelled && !result.over_cpu && !child->poll_exited()) {
    if (stop_early()) break;
    usleep(1000);
  }
  result.status = child->wait();
  result.output = std::move(output.head);
  return result;
}

std::string describe_signal(int signal) {
  const char* name = sigabbrev_np(signal);
  const char* text = sigdescr_np(signal);
  return fmt::format("SIG{} ({})", name ? name : std::to_string(signal), text ? text : "unknown signal");
}

}  // namespace judge
