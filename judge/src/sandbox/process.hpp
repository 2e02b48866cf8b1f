// Spawning and reaping child processes. Every child the judge runs (the
// compiler, addr2line, runners) starts here; sandbox.cpp forks too, only to
// probe what the kernel allows.
//
// Every child gets its own process group (so a kill reaches its whole tree),
// stdin from /dev/null, stdout and stderr on pipes, a clean environment,
// core dumps off, every inherited descriptor closed but the ones asked for,
// and dies with the judge (PR_SET_PDEATHSIG).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sandbox/identity.hpp"
#include "sandbox/syscall_filter.hpp"
#include "sandbox/view.hpp"
#include "util/cancel_signal.hpp"

namespace judge {

struct SpawnSpec {
  std::vector<std::string> argv;          // argv[0] is the program; looked up in PATH when it has no '/'
  std::vector<std::string> env;           // the child's whole environment
  std::string working_dir;                // empty: inherit
  int channel_fd = -1;                    // when >= 0, becomes the child's descriptor 3
  std::uint64_t address_space_bytes = 0;  // RLIMIT_AS; 0: unlimited
  std::vector<int> cgroup_procs_fds;      // the child moves itself into each of these cgroups first
  int cpu_seconds = 0;                    // RLIMIT_CPU; 0: unlimited
  std::uint64_t file_size_bytes = 0;      // RLIMIT_FSIZE; 0: unlimited
  // Sandboxed children get what sandbox_support() allows: PID, network and
  // mount namespaces, the file system `sandbox_view` describes (its working
  // directory instead of `working_dir`), Landlock over that view, and a user
  // of their own with RLIMIT_NPROC `max_processes` when the judge is root.
  // argv[0] must then be a path.
  bool sandbox = false;
  SandboxView sandbox_view;
  int max_processes = 64;
  FilterFor syscall_filter = FilterFor::kRunner;  // which seccomp filter a sandboxed child gets
  // When the judge is not root: map the child to subordinate ids where the
  // machine has them (runners). The compiler keeps the judge's user, so
  // that what it writes stays the judge's to read and remove.
  bool subordinate_user = true;
};

// How a child ended.
struct ExitStatus {
  bool exited = false;  // exited normally with `code`
  int code = 0;
  int signal = 0;          // killed by this signal (when !exited)
  double cpu_seconds = 0;  // user + system, from the kernel
  // The child's peak resident memory, 0 when unknown: a forked child starts
  // with its parent's pages, and the kernel's figure keeps them across exec,
  // so a peak no larger than the judge's own at fork says nothing.
  long max_rss_kb = 0;
};

// Bytes a child printed: the first `cap` kept, the rest only counted, so the
// judge's memory never grows with a flood.
struct CapturedOutput {
  explicit CapturedOutput(std::size_t cap = 64 * 1024) : cap(cap) {}
  void append(const char* data, std::size_t size);
  std::size_t cap;
  std::string head;
  std::uint64_t total = 0;
};

class Child {
 public:
  // Starts the child; on failure returns null and sets *error to a message
  // naming the failed call.
  static std::unique_ptr<Child> spawn(const SpawnSpec& spec, std::string* error);
  ~Child();  // kills the group and reaps the child if still running

  pid_t pid() const { return pid_; }
  // The process that runs the program: pid() itself, or, for a child in
  // its own PID namespace (where pid() stays outside and mirrors how the
  // program ended), the program's process in the judge's view. -1 when it
  // is gone.
  pid_t program_pid();
  // The CPU time of the program's process (every thread, live or ended),
  // in milliseconds, from the kernel's accounting: nothing the program does
  // can change it. -1 when it cannot be read.
  double program_cpu_ms();
  // Waits up to `max_ms` for the program's main thread to stop running
  // (to block, typically on its next read), so that its CPU time is
  // settled. Returns at once when it is not running.
  void wait_until_idle(int max_ms);
  int stdout_fd() const { return stdout_fd_; }
  int stderr_fd() const { return stderr_fd_; }

  // Reads whatever is available on stdout/stderr without blocking.
  void drain(CapturedOutput* out, CapturedOutput* err);
  // SIGKILL to the child's whole process group.
  void kill_group();
  // SIGTERM to the whole group, then SIGKILL once the child has ended or
  // `grace_ms` have passed, whichever comes first.
  void stop_group(int grace_ms);
  // Waits for the child to end (blocking) and returns how; idempotent.
  ExitStatus wait();
  // True when the child has ended (reaps it); does not block.
  bool poll_exited();

 private:
  Child() = default;
  pid_t pid_ = -1;
  int stdout_fd_ = -1;
  int stderr_fd_ = -1;
  bool reaped_ = false;
  bool namespaced_ = false;  // pid() mirrors a program two forks down
  pid_t program_pid_ = -1;
  long inherited_rss_kb_ = 0;  // the judge's peak when it forked the child
  ExitStatus status_;
  // The ids it runs as: released (in the destructor) only after it is reaped.
  RunnerIds ids_;
};

// Runs a command to completion, capturing stdout and stderr together (the
// first `output_cap` bytes kept); kills its group after `timeout_ms`, as
// soon as `cancel` (when given) is raised, or as soon as `over_cpu` (when
// given; asked every 100 ms) says it has used its CPU time. Used for the
// compiler and addr2line.
struct CommandResult {
  bool started = false;
  bool timed_out = false;  // by the clock
  bool over_cpu = false;   // `over_cpu` said so
  bool cancelled = false;
  ExitStatus status;
  std::string output;
  std::string error;  // why it could not start
};
CommandResult run_command(const SpawnSpec& spec, int timeout_ms, std::size_t output_cap = 1 << 20,
                          const CancelSignal* cancel = nullptr, const std::function<bool()>& over_cpu = {});

// "SIGSEGV (segmentation fault)" and the like.
std::string describe_signal(int signal);

}  // namespace judge
