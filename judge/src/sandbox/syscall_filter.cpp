// Building the seccomp programs with libseccomp, and loading them.
#include "sandbox/syscall_filter.hpp"

#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <fmt/format.h>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "util/environment.hpp"

namespace judge {
namespace {
// Denied to every sandboxed child.
constexpr const char* kDenied[] = {
    "socket",
    "socketpair",
    "connect",
    "unshare",
    "setns",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "bpf",
    "perf_event_open",
    "keyctl",
    "add_key",
    "request_key",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "userfaultfd",
    "kexec_load",
    "kexec_file_load",
    "reboot",
    "init_module",
    "finit_module",
    "delete_module",
    "swapon",
    "swapoff",
    "settimeofday",
    "clock_settime",
    "clock_adjtime",
    "adjtimex",
    "syslog",
    "acct",
    "quotactl",
    "open_by_handle_at",
    "name_to_handle_at",
    "lookup_dcookie",
    "fanotify_init",
    "iopl",
    "ioperm",
    "vhangup",
    "mount_setattr",
    "move_mount",
    "open_tree",
    "fsopen",
    "fsmount",
    "fsconfig",
    "fspick",
    // System V IPC and POSIX message queues: each child has an IPC namespace
    // of its own where the kernel allows one; this holds where it does not.
    "shmget",
    "shmat",
    "shmctl",
    "shmdt",
    "msgget",
    "msgsnd",
    "msgrcv",
    "msgctl",
    "semget",
    "semop",
    "semtimedop",
    "semctl",
    "mq_open",
    "mq_unlink",
    "mq_timedsend",
    "mq_timedreceive",
    "mq_notify",
    "mq_getsetattr",
};
constexpr unsigned long kNamespaceFlags[] = {CLONE_NEWNS,  CLONE_NEWUSER, CLONE_NEWPID,   CLONE_NEWNET,
                                             CLONE_NEWUTS, CLONE_NEWIPC,  CLONE_NEWCGROUP};

struct ContextRelease {
  void operator()(scmp_filter_ctx context) const { seccomp_release(context); }
};

bool add_rules(scmp_filter_ctx context, FilterFor kind, std::string* missing) {
  const std::uint32_t deny = kind == FilterFor::kRunner ? SCMP_ACT_TRAP : SCMP_ACT_ERRNO(EPERM);
  auto failed = [&](const char* what, int error) {
    *missing = fmt::format("seccomp_rule_add {}: {}", what, std::strerror(-error));
    return false;
  };
  for (const char* name : kDenied) {
    int number = seccomp_syscall_resolve_name(name);
    if (number == __NR_SCMP_ERROR) continue;  // this kernel's headers lack it
    if (int error = seccomp_rule_add(context, deny, number, 0); error != 0) return failed(name, error);
  }
  for (unsigned long flag : kNamespaceFlags)
    if (int error = seccomp_rule_add(context, deny, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, flag, flag));
        error != 0)
      return failed("clone", error);
  if (int error = seccomp_rule_add(context, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0); error != 0)
    return failed("clone3", error);
  if (kind != FilterFor::kRunner) return true;
  // A runner makes threads, not processes.
  if (int error = seccomp_rule_add(context, deny, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0));
      error != 0)
    return failed("clone", error);
  for (const char* name : {"fork", "vfork"})
    if (int error = seccomp_rule_add(context, deny, seccomp_syscall_resolve_name(name), 0); error != 0)
      return failed(name, error);
  return true;
}

// The BPF program libseccomp builds, read back through a memfd.
SyscallFilter build(FilterFor kind) {
  SyscallFilter filter;
  std::unique_ptr<void, ContextRelease> context(seccomp_init(SCMP_ACT_ALLOW));
  if (!context) return filter.missing = "seccomp_init failed", filter;
  // Not x86-64 (an i386 call through int 0x80, say): the process is killed.
  seccomp_attr_set(context.get(), SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
  if (!add_rules(context.get(), kind, &filter.missing)) return filter;
  int fd = memfd_create("judge-seccomp", MFD_CLOEXEC);
  if (fd < 0) return filter.missing = fmt::format("memfd_create: {}", std::strerror(errno)), filter;
  if (int error = seccomp_export_bpf(context.get(), fd); error != 0) {
    close(fd);
    return filter.missing = fmt::format("seccomp_export_bpf: {}", std::strerror(-error)), filter;
  }
  off_t size = lseek(fd, 0, SEEK_END);
  filter.program.resize(static_cast<std::size_t>(size) / sizeof(sock_filter));
  bool read_whole = pread(fd, filter.program.data(), static_cast<std::size_t>(size), 0) == size;
  close(fd);
  if (!read_whole || filter.program.empty()) {
    filter.program.clear();
    filter.missing = "could not read back the exported filter";
  }
  return filter;
}
}  // namespace

const SyscallFilter& syscall_filter(FilterFor kind) {
  static std::once_flag once;
  static SyscallFilter filters[2];
  std::call_once(once, [] {
    if (environment_flag(kNoSyscallFilterVariable)) {
      for (SyscallFilter& filter : filters) filter.missing = fmt::format("{} is on", kNoSyscallFilterVariable);
      return;
    }
    filters[0] = build(FilterFor::kRunner);
    filters[1] = build(FilterFor::kCompiler);
  });
  return filters[kind == FilterFor::kRunner ? 0 : 1];
}

std::string syscall_name(int number) {
  char* name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, number);
  std::string out = name ? name : fmt::format("number {}", number);
  std::free(name);
  return out;
}

namespace sandbox_child {

bool load_filter(const SyscallFilter& filter) {
  sock_fprog program{static_cast<unsigned short>(filter.program.size()),
                     const_cast<sock_filter*>(filter.program.data())};
  return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) == 0;
}

}  // namespace sandbox_child
}  // namespace judge
