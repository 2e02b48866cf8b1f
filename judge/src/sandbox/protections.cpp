// The protections `judge doctor` lists.
#include "sandbox/protections.hpp"

#include <fmt/format.h>
#include <cstdlib>

#include "sandbox/limits.hpp"
#include "sandbox/runner_cgroup.hpp"
#include "sandbox/sandbox.hpp"
#include "sandbox/syscall_filter.hpp"
#include "util/environment.hpp"

namespace judge {
namespace {
// The cap on a child's processes and threads: the pids cgroup where the
// judge uses one (`pids_missing` says why not), else RLIMIT_NPROC where
// something counts the child's processes apart from the judge's user's.
ProtectionReport process_cap(bool pids_cgroup, const std::string& pids_missing) {
  const SandboxSupport& sandbox = sandbox_support();
  if (pids_cgroup)
    return {"process cap", true,
            "the pids controller caps a runner's or compile's processes and threads (64), whatever user it runs as"};
  if (sandbox.runner_has_own_user() || sandbox.namespace_process_cap)
    return {"process cap", true,
            fmt::format("{}; instead RLIMIT_NPROC caps a child's processes and threads at 64, counted {}", pids_missing,
                        sandbox.runner_has_own_user() ? "for its own user" : "in its own user namespace")};
  return {"process cap", false,
          fmt::format("{}; {}: nothing caps a child's threads (or the compiler's processes), so other people's "
                      "code is refused",
                      pids_missing, sandbox.namespace_process_cap_missing)};
}

std::vector<ProtectionReport> cgroup_protections() {
  const CgroupSupport& cgroups = cgroup_support();
  const bool disabled = environment_flag(kNoMemoryCgroupVariable);
  if (cgroups.available && disabled) {
    std::string why = fmt::format("available, but {} is on", kNoMemoryCgroupVariable);
    return {{"memory cgroup", false, why + "; RLIMIT_AS at the problem's limit instead"},
            process_cap(false, why),
            {"cpu accounting", false, why + "; the runner process's own clock instead (threads included)"}};
  }
  std::vector<ProtectionReport> out;
  if (cgroups.available)
    out.push_back({"memory cgroup", true,
                   fmt::format("{} under {}: resident memory capped at the problem's limit, sanitized runs included",
                               cgroups.parent.version == CgroupVersion::kV2 ? "cgroup v2 memory.max"
                                                                            : "cgroup v1 memory.limit_in_bytes",
                               cgroups.parent.directory)});
  else
    out.push_back({"memory cgroup", false,
                   cgroups.missing +
                       "; RLIMIT_AS at the problem's limit instead, per process (not under --sanitize, where "
                       "AddressSanitizer's own allocation and resident-memory limits apply)"});
  out.push_back(process_cap(cgroups.available && cgroups.pids, cgroups.pids_missing));
  out.push_back({"cpu accounting", cgroups.cpu,
                 cgroups.cpu ? "performance checks read the CPU time of the runner's whole cgroup"
                             : cgroups.cpu_missing +
                                   "; performance checks read the runner process's CPU time (every thread) instead: "
                                   "work in another process would not be counted were it not for the system-call "
                                   "filter, which denies new processes"});
  return out;
}

ProtectionReport user_protection(const SandboxSupport& s) {
  if (s.drop_to_nobody)
    return {"runner user", true,
            "each runner runs as a user of its own, group nobody (the judge is root): it cannot touch your files, "
            "sockets or processes; RLIMIT_NPROC caps its processes at 64"};
  if (s.subordinate)
    return {"runner user", true,
            fmt::format("each runner runs as one of your subordinate ids ({} from {}, mapped by newuidmap): it cannot "
                        "touch your files, sockets or processes",
                        s.subordinate->uids.count, s.subordinate->uids.first)};
  return {"runner user", false,
          s.subordinate_missing +
              "; runners keep your user: only the system-call filter keeps them from your unix sockets (a tmux or "
              "ssh-agent socket would run commands as you), and `judge grade` refuses to run without both unless "
              "given --trust-submissions"};
}

std::vector<ProtectionReport> isolation_protections(const SandboxSupport& s) {
  return {
      {"process group", true, "SIGTERM then SIGKILL to the runner's whole group on a time limit"},
      {"pid namespace", s.namespaces,
       s.namespaces ? "descendants die with the runner, even after setsid; IPC (System V, POSIX message queues) "
                      "and cgroup namespaces of its own too"
                    : s.namespaces_missing + "; descendants that leave the process group can outlive it"},
      {"network namespace", s.namespaces,
       s.namespaces ? "no network interfaces but a downed loopback" : s.namespaces_missing},
      {"private root", s.private_root,
       s.private_root ? "a mount namespace whose root holds only an allow-list of system directories (never /usr or "
                        "/usr/local whole, never the judge's own files) and the child's own: no other path exists "
                        "for it (the compiler sees the build inputs and its scratch directory; a runner an empty "
                        "tmpfs as /tmp)"
                      : s.private_root_missing + "; the host's paths stay visible (Landlock still denies opening "
                                                 "them, but a probe such as __has_include can tell that they exist)"},
      {"fresh /proc", s.fresh_proc,
       s.fresh_proc
           ? "a runner's /proc shows only its own processes"
           : s.fresh_proc_missing + "; a runner sees the host's /proc: other processes and their command lines"},
      {"landlock filesystem", s.landlock_abi >= 1,
       s.landlock_abi >= 1 ? fmt::format("ABI {}: system directories read-only, the scratch directory read-write, "
                                         "nothing else (not problems/, solutions/, the workspace or your home)",
                                         s.landlock_abi)
                           : s.landlock_missing + "; the runner can read what the judge's user can"},
      {"landlock tcp", s.landlock_abi >= 4,
       s.landlock_abi >= 4 ? "TCP bind and connect denied"
                           : fmt::format("needs Landlock ABI 4, have {}", s.landlock_abi)},
      {"landlock scopes", s.landlock_abi >= 6,
       s.landlock_abi >= 6 ? "no signals to, and no abstract sockets of, processes outside the sandbox"
                           : fmt::format("needs Landlock ABI 6, have {}", s.landlock_abi)},
      user_protection(s),
  };
}
}  // namespace

std::vector<ProtectionReport> describe_protections() {
  const SandboxSupport& s = sandbox_support();
  std::vector<ProtectionReport> out = isolation_protections(s);
  for (ProtectionReport& report : cgroup_protections()) out.push_back(std::move(report));
  const SyscallFilter& filter = syscall_filter(FilterFor::kRunner);
  out.push_back({"system-call filter", !filter.program.empty(),
                 !filter.program.empty()
                     ? "seccomp: no new sockets (pathname unix sockets included) or connect, no new processes (threads "
                       "only), no unshare, setns, mount or namespace flags, no ptrace, bpf, perf_event_open, keyctl, "
                       "io_uring, userfaultfd, kexec or reboot; a denied call is a runtime_error naming it (the "
                       "compiler gets EPERM)"
                     : filter.missing + "; a runner may use every system call its user may"});
  CompileLimits compile = compile_limits();
  out.push_back(
      {"sandboxed compile", s.namespaces,
       fmt::format("the compiler, assembler and linker work on a private copy of the solution in the same "
                   "sandbox, limited to {} s, {} MiB of memory and {} MiB per file written{}",
                   compile.seconds, compile.memory_bytes >> 20, compile.file_size_bytes >> 20,
                   s.namespaces ? "" : "; without PID namespaces a killed judge can leave compiler processes behind")});
  out.push_back({"cpu and wall time", true,
                 "the judge reads each call's CPU time from the kernel and times it by its own clock; RLIMIT_CPU as a "
                 "backstop; per-case wall-clock limit enforced by the judge"});
  out.push_back({"replies", true,
                 fmt::format("a reply may be at most {} MiB plus {} times its request; a larger one is the learner's "
                             "runtime_error, read no further",
                             kReplyBaseBytes >> 20, kReplyPerRequestByte)});
  out.push_back({"output", true, "stdout/stderr drained by the judge; 16 KiB per case kept, the rest discarded"});
  out.push_back({"files", true, "RLIMIT_FSIZE 16 MiB; /tmp is the runner's own and goes with it"});
  out.push_back({"descriptors and environment", true, "only 0, 1, 2 and the judge's channel; a clean environment"});
  out.push_back({"core dumps", true, "RLIMIT_CORE 0"});
  return out;
}

}  // namespace judge
