// The protections around a sandboxed child (a learner's runner), and what
// this machine allows of them.
//
// Each protection is applied where the kernel allows it and reported (by
// `judge doctor`, protections.hpp) when not; a missing one is a warning,
// never a refusal.
//   - PID namespace: every descendant dies with the runner, even after setsid.
//   - network namespace, and Landlock's TCP rules: no network.
//   - Landlock (landlock.hpp): read-only access to system directories,
//     read-write only to a scratch directory; the problem's files and the
//     reference unreadable.
//   - running as root: a user of its own (identity.hpp).
//   - rlimits (address space, CPU, file size, core dumps), set by process.cpp.
//   - a memory cgroup (memory_cgroup.hpp), made by the runner session.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace judge {

struct SandboxSupport {
  bool namespaces = false;      // new PID and network namespaces for each runner
  bool user_namespace = false;  // needed for them when not root
  std::string namespaces_missing;
  int landlock_abi = 0;  // 0: unavailable
  std::string landlock_missing;
  bool drop_to_nobody = false;  // the judge runs as root
};

// Probed once per process (forks a short-lived child to try unshare).
const SandboxSupport& sandbox_support();

// What a sandboxed child may touch. Prepared in the parent (no allocation
// happens between fork and exec).
struct SandboxPaths {
  std::vector<std::string> read_only;  // directories and files: read (and execute)
  std::string read_write;              // the scratch directory
  std::string executable;              // the runner binary
};
SandboxPaths default_sandbox_paths(const std::string& scratch_dir, const std::string& executable);

namespace sandbox_child {
// Called between fork and exec: only system calls, no allocation. New PID
// and network namespaces, inside a user namespace mapping `outer_uid` and
// `outer_gid` to themselves when the judge is not root. False (errno set)
// on failure.
bool enter_namespaces(const SandboxSupport& support, uid_t outer_uid, gid_t outer_gid);
}  // namespace sandbox_child

}  // namespace judge
