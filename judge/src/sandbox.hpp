// The protections around a learner's runner, and what this machine allows.
//
// Each protection is applied where the kernel allows it and reported (by
// `judge doctor`) when not; a missing one is a warning, never a refusal.
//   - PID namespace: every descendant dies with the runner, even after setsid.
//   - network namespace, and Landlock's TCP rules: no network.
//   - Landlock: read-only access to system directories, read-write only to
//     a scratch directory; the problem's files and the reference unreadable.
//   - running as root: the runner drops to a user of its own (group nobody),
//     so RLIMIT_NPROC caps its processes and file permissions apply. A user
//     per runner, not nobody for all: the kernel counts RLIMIT_NPROC per
//     user, and one runner's fork bomb must not stop another from starting.
//   - rlimits (address space, CPU, file size, core dumps), set by process.cpp.
#pragma once

#include <string>
#include <vector>

namespace judge {

struct SandboxSupport {
  bool namespaces = false;      // new PID and network namespaces for each runner
  bool user_namespace = false;  // needed for them when not root
  std::string namespaces_missing;
  int landlock_abi = 0;         // 0: unavailable
  std::string landlock_missing;
  bool drop_to_nobody = false;  // the judge runs as root
};

// Probed once per process (forks a short-lived child to try unshare).
const SandboxSupport& sandbox_support();

// One line per protection: "ok" or "missing" and why, for `judge doctor`.
struct ProtectionReport {
  std::string name;
  bool active = false;
  std::string detail;
};
std::vector<ProtectionReport> describe_protections();

// What a sandboxed child may touch. Prepared in the parent (no allocation
// happens between fork and exec).
struct SandboxPaths {
  std::vector<std::string> read_only;  // directories and files: read (and execute)
  std::string read_write;              // the scratch directory
  std::string executable;              // the runner binary
};
SandboxPaths default_sandbox_paths(const std::string& scratch_dir, const std::string& executable);

namespace sandbox_child {
// Called between fork and exec: only system calls, no allocation. Each
// returns false (errno set) on failure.
bool enter_namespaces(const SandboxSupport& support, uid_t outer_uid, gid_t outer_gid);
// The Landlock rules, built while still the judge's user (who can reach a
// checkout in a private directory such as /root), as a ruleset descriptor;
// -1 on failure. enforce_ruleset() applies it later, as the runner's user.
int filesystem_ruleset(int landlock_abi, const char* const* read_only, const char* read_write,
                       const char* executable);
bool enforce_ruleset(int ruleset);
bool drop_privileges(uid_t uid);
}  // namespace sandbox_child

inline constexpr int kNobody = 65534;

// A user id for the next runner: in a range no distribution assigns to
// accounts (from 0x50000000), different for every runner of this process
// and, by its process id, very likely from other judges' runners.
uid_t next_runner_uid();

}  // namespace judge
