// A system-call filter (seccomp) for sandboxed children: a deny list of the
// calls that reach past the sandbox, built with libseccomp in the parent
// and loaded between fork and exec.
//
// Denied to both runners and the compiler: new sockets of any family
// (socket, socketpair; the runner's channel is inherited) and connect;
// unshare, setns, mount, umount2, pivot_root, chroot and clone with a
// namespace flag; ptrace and process_vm_readv/writev; bpf;
// perf_event_open; keyctl, add_key, request_key; io_uring; userfaultfd;
// kexec, reboot, kernel modules, swap, the clock, syslog, acct, quotactl,
// open_by_handle_at. clone3 reports ENOSYS, so the C library falls back to
// clone, whose flags the filter can read. Runners also may not make new
// processes (fork, vfork, clone without CLONE_THREAD): threads are allowed.
// i386 system calls (int 0x80) are refused outright.
//
// A runner's denied call raises SIGSYS, which the harness reports as
// "judge-denied-syscall: N" before it dies; the compiler's fails with EPERM.
#pragma once

#include <linux/filter.h>

#include <string>
#include <vector>

namespace judge {

enum class FilterFor { kRunner, kCompiler };

struct SyscallFilter {
  std::vector<sock_filter> program;  // empty: no filter
  std::string missing;               // why there is none
};

// The filter, built once per process and kind; none when
// JUDGE_NO_SYSCALL_FILTER is on (to test what the sandbox does without it).
const SyscallFilter& syscall_filter(FilterFor kind);
inline constexpr const char* kNoSyscallFilterVariable = "JUDGE_NO_SYSCALL_FILTER";

// The marker the harness prints on a denied call, and the call's name.
inline constexpr const char* kDeniedSyscallMarker = "judge-denied-syscall:";
std::string syscall_name(int number);

namespace sandbox_child {
// Loads `filter` (no allocation); false (errno set) on failure. Sets
// no_new_privs first, as seccomp requires.
bool load_filter(const SyscallFilter& filter);
}  // namespace sandbox_child

}  // namespace judge
