// What judging other people's code requires of this machine's sandbox.
//
// A learner judging their own file runs with whatever protections the
// machine allows; a missing one is noted on the verdict. Judging someone
// else's code (`judge grade`, the Gradescope and Exercism formats, a file
// another user owns) needs each of the protections below, and the command
// line refuses to start where one is missing, unless told to trust the
// submissions:
//   - a file sandbox (a private root, or Landlock): without one a
//     submission reads the reference and the hidden cases, and writes what
//     the judge's user may write;
//   - a cap on a submission's processes and threads (a pids cgroup, or
//     RLIMIT_NPROC where the child has a user, or a user namespace, whose
//     count is its own): without one a thread bomb starves every other
//     runner and the machine;
//   - runners that cannot act as the judge's user (a user of their own, or
//     the system-call filter): without them a submission could reach the
//     user's sockets and processes.
#pragma once

#include <string>
#include <vector>

namespace judge {

struct SandboxGap {
  std::string protection;  // "file sandbox", "process cap", "runner user"
  std::string missing;     // why this machine lacks it (from the probes)
  std::string allows;      // what its absence lets a submission do
  std::string how;         // how to get it
};

struct SandboxSupport;
struct CgroupSupport;

// What the gaps are decided from: the probes of sandbox/sandbox.hpp and
// sandbox/runner_cgroup.hpp, and the runners' system-call filter.
struct UntrustedCodeProbes {
  const SandboxSupport& sandbox;
  const CgroupSupport& cgroups;
  bool cgroups_in_use = false;  // cgroups_in_use(): not turned off
  bool runner_filter = false;   // a system-call filter for runners exists
  std::string runner_filter_missing;
};

// The protections judging other people's code needs that `probes` lack;
// empty when they have them all.
std::vector<SandboxGap> gaps_for_untrusted_code(const UntrustedCodeProbes& probes);
// The same for this machine, as probed once per process.
std::vector<SandboxGap> gaps_for_untrusted_code();

// The gaps in one line: "no file sandbox (WHY): a submission could ...;
// no cap on ... (WHY): ...".
std::string describe_gaps(const std::vector<SandboxGap>& gaps);

}  // namespace judge
