// The protections `judge doctor` lists.
#include "sandbox/protections.hpp"

#include <fmt/format.h>
#include <cstdlib>

#include "sandbox/limits.hpp"
#include "sandbox/memory_cgroup.hpp"
#include "sandbox/sandbox.hpp"

namespace judge {
namespace {
ProtectionReport memory_protection() {
  const MemoryCgroupSupport& memory = memory_cgroup_support();
  const char* disabled = std::getenv(kNoMemoryCgroupVariable);
  if (memory.available && disabled && *disabled)
    return {"memory cgroup", false,
            fmt::format("available, but {} is set; RLIMIT_AS at the problem's limit instead", kNoMemoryCgroupVariable)};
  if (memory.available)
    return {"memory cgroup", true,
            fmt::format("{} under {}: resident memory capped at the problem's limit, sanitized runs included",
                        memory.parent.version == CgroupVersion::kV2 ? "cgroup v2 memory.max"
                                                                    : "cgroup v1 memory.limit_in_bytes",
                        memory.parent.directory)};
  return {"memory cgroup", false,
          memory.missing +
              "; RLIMIT_AS at the problem's limit instead (not under --sanitize, where "
              "AddressSanitizer's own allocation and resident-memory limits apply)"};
}

std::vector<ProtectionReport> isolation_protections(const SandboxSupport& s) {
  return {
      {"process group", true, "SIGTERM then SIGKILL to the runner's whole group on a time limit"},
      {"pid namespace", s.namespaces,
       s.namespaces ? "descendants die with the runner, even after setsid"
                    : s.namespaces_missing + "; descendants that leave the process group can outlive it"},
      {"network namespace", s.namespaces,
       s.namespaces ? "no network interfaces but a downed loopback" : s.namespaces_missing},
      {"private root", s.private_root,
       s.private_root ? "a mount namespace whose root holds only the system's directories and the child's own: "
                        "no other path exists for it (the compiler sees the build inputs and its scratch directory; "
                        "a runner its scratch directory as /tmp)"
                      : s.private_root_missing + "; the host's paths stay visible (Landlock still denies opening "
                                                 "them, but a probe such as __has_include can tell that they exist)"},
      {"fresh /proc", s.fresh_proc,
       s.fresh_proc ? "a runner's /proc shows only its own processes"
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
      {"unprivileged user", s.drop_to_nobody,
       s.drop_to_nobody ? "runs as a user of its own, group nobody (the judge is root); RLIMIT_NPROC caps "
                          "its processes at 64"
                        : "the judge is not root: the runner keeps your user; RLIMIT_NPROC is not applied "
                          "(it would count all your processes)"},
  };
}
}  // namespace

std::vector<ProtectionReport> describe_protections() {
  const SandboxSupport& s = sandbox_support();
  std::vector<ProtectionReport> out = isolation_protections(s);
  out.push_back(memory_protection());
  CompileLimits compile = compile_limits();
  out.push_back({"sandboxed compile", s.namespaces,
                 fmt::format("the compiler, assembler and linker work on a private copy of the solution in the same "
                             "sandbox, limited to {} s, {} MiB of memory and {} MiB per file written{}",
                             compile.seconds, compile.memory_bytes >> 20, compile.file_size_bytes >> 20,
                             s.namespaces ? "" : "; without PID namespaces a killed judge can leave compiler processes behind")});
  out.push_back(
      {"cpu and wall time", true, "RLIMIT_CPU as a backstop; per-case wall-clock limit enforced by the judge"});
  out.push_back({"output", true, "stdout/stderr drained by the judge; 16 KiB per case kept, the rest discarded"});
  out.push_back({"files", true, "RLIMIT_FSIZE 16 MiB; the scratch directory is removed after the run"});
  out.push_back({"descriptors and environment", true, "only 0, 1, 2 and the judge's channel; a clean environment"});
  out.push_back({"core dumps", true, "RLIMIT_CORE 0"});
  return out;
}

}  // namespace judge
