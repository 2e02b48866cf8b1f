// The two processes that wait while a sandboxed program runs (process.cpp,
// run_in_namespaces): PID 1 of the program's PID namespace, and the judge's
// own child outside the namespaces, which ends the way the program ended.
// Used by the judge-sandbox-init program (sandbox_init_main.cpp), and by
// process.cpp itself where that program cannot be executed. Only system
// calls, as between fork and exec.
#pragma once

#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

namespace judge::sandbox_wait {

// PID 1 of the new PID namespace: reaps every process, writes the program's
// wait status to `status_fd` once the program has ended, and exits, which
// ends whatever the program left in the namespace.
[[noreturn]] inline void serve_as_pid1(pid_t program, int status_fd) {
  int status = 0;
  for (;;) {
    int reaped_status = 0;
    pid_t reaped = wait(&reaped_status);
    if (reaped == program) {
      status = reaped_status;
      break;
    }
    if (reaped < 0 && errno != EINTR) break;
  }
  [[maybe_unused]] ssize_t n = write(status_fd, &status, sizeof status);
  _exit(0);
}

// Ends this process the way `status` says another ended.
[[noreturn]] inline void mirror_status(int status) {
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, nullptr);
    kill(getpid(), sig);
    _exit(128 + sig);
  }
  _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 126);
}

// The judge's child outside the namespaces: reads the program's status from
// `status_fd`, reaps `init`, and ends the way the program ended.
[[noreturn]] inline void serve_as_outer(pid_t init, int status_fd) {
  int status = 0;
  ssize_t got;
  do got = read(status_fd, &status, sizeof status);
  while (got < 0 && errno == EINTR);
  int init_status = 0;
  while (waitpid(init, &init_status, 0) < 0 && errno == EINTR) {
  }
  mirror_status(got == static_cast<ssize_t>(sizeof status) ? status : init_status);
}

}  // namespace judge::sandbox_wait
