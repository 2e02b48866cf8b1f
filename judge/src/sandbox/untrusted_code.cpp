// The protections other people's code needs, checked against the probes.
#include "sandbox/untrusted_code.hpp"

#include <fmt/format.h>

#include "sandbox/runner_cgroup.hpp"
#include "sandbox/sandbox.hpp"
#include "sandbox/syscall_filter.hpp"

namespace judge {

std::vector<SandboxGap> gaps_for_untrusted_code() {
  const SyscallFilter& filter = syscall_filter(FilterFor::kRunner);
  return gaps_for_untrusted_code(
      {sandbox_support(), cgroup_support(), cgroups_in_use(), !filter.program.empty(), filter.missing});
}

std::vector<SandboxGap> gaps_for_untrusted_code(const UntrustedCodeProbes& probes) {
  const SandboxSupport& sandbox = probes.sandbox;
  std::vector<SandboxGap> gaps;
  if (!sandbox.file_sandbox())
    gaps.push_back(
        {"file sandbox",
         fmt::format("private root: {}; Landlock: {}", sandbox.private_root_missing, sandbox.landlock_missing),
         "a submission could read the reference and the hidden cases, and write whatever your user may",
         "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1 and "
         "user.max_user_namespaces above 0) or boot with Landlock (lsm=...,landlock); in a container, "
         "give it a seccomp profile that allows unshare and clone with CLONE_NEWUSER, or the landlock_* "
         "calls"});
  const CgroupSupport& cgroups = probes.cgroups;
  bool pids_cgroup = probes.cgroups_in_use && cgroups.pids;
  if (!pids_cgroup && !sandbox.rlimit_caps_processes())
    gaps.push_back(
        {"process cap",
         fmt::format("pids cgroup: {}; RLIMIT_NPROC: {}", probes.cgroups_in_use ? cgroups.pids_missing : "not in use",
                     sandbox.subordinate_missing.empty()
                         ? sandbox.namespace_process_cap_missing
                         : sandbox.namespace_process_cap_missing + "; " + sandbox.subordinate_missing),
         "a submission's threads and processes are not capped: one could starve every other runner "
         "and exhaust the machine's process ids",
         "run on Linux 5.14 or later (RLIMIT_NPROC counted per user namespace), give your user "
         "subordinate ids (usermod --add-subuids 100000-165535 --add-subgids 100000-165535 USER, with "
         "uidmap installed), or run the judge in a delegated cgroup (systemd-run --user --scope -p "
         "Delegate=yes judge ...)"});
  if (!sandbox.runner_has_own_user() && !probes.runner_filter)
    gaps.push_back(
        {"runner user",
         fmt::format("{}; system-call filter: {}", sandbox.subordinate_missing, probes.runner_filter_missing),
         "runners would run as your user with no system-call filter: a submission could connect to "
         "your unix sockets (tmux, ssh-agent) and run commands as you",
         "give your user subordinate ids (usermod --add-subuids 100000-165535 --add-subgids "
         "100000-165535 USER, with uidmap installed), or keep the system-call filter on"});
  return gaps;
}

std::string describe_gaps(const std::vector<SandboxGap>& gaps) {
  std::string text;
  for (const SandboxGap& gap : gaps)
    text += fmt::format("{}no {} ({}): {}", text.empty() ? "" : "; ", gap.protection, gap.missing, gap.allows);
  return text;
}

}  // namespace judge
