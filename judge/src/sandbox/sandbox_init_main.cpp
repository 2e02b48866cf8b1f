// judge-sandbox-init: the two waiting processes of a sandboxed child
// (process.cpp, run_in_namespaces), as a program of their own.
//
// Both are forks of the judge. Had they stayed forks until the program
// ended, each would hold a copy-on-write share of every page of the judge,
// and every page the judge's threads wrote while a runner was alive would
// be copied, with a TLB flush on every core (a quarter of `judge grade`'s
// CPU time). Executing this small static program drops that share.
//
//   judge-sandbox-init pid1 PROGRAM_PID STATUS_FD
//     PID 1 of the new PID namespace: reaps every process, writes the
//     program's wait status to STATUS_FD once the program has ended, and
//     exits, which ends whatever the program left in the namespace.
//   judge-sandbox-init outer INIT_PID STATUS_FD
//     The judge's own child, outside the namespaces: reads that status from
//     STATUS_FD, reaps INIT_PID, and ends the way the program ended.
//
// Only system calls: no allocation, no standard streams (it has none of
// its own to write to).
#include <sys/types.h>

#include <cstring>

#include "sandbox/namespace_waiters.hpp"

namespace {

// A decimal number, or -1 when `text` is not one.
long parse_number(const char* text) {
  if (*text == '\0') return -1;
  long value = 0;
  for (; *text; ++text) {
    if (*text < '0' || *text > '9' || value > 100000000) return -1;
    value = value * 10 + (*text - '0');
  }
  return value;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) return 125;
  long pid = parse_number(argv[2]), fd = parse_number(argv[3]);
  if (pid <= 0 || fd < 0) return 125;
  if (std::strcmp(argv[1], "pid1") == 0)
    judge::sandbox_wait::serve_as_pid1(static_cast<pid_t>(pid), static_cast<int>(fd));
  if (std::strcmp(argv[1], "outer") == 0)
    judge::sandbox_wait::serve_as_outer(static_cast<pid_t>(pid), static_cast<int>(fd));
  return 125;
}
