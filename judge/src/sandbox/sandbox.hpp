// The protections around a sandboxed child (a learner's runner, or the
// compiler working on a learner's file), and what this machine allows of
// them.
//
// Each protection is applied where the kernel allows it and reported (by
// `judge doctor`, protections.hpp) when not; a missing one is a warning,
// never a refusal.
//   - PID namespace: every descendant dies with the child, even after setsid.
//   - network namespace, and Landlock's TCP rules: no network.
//   - mount namespace with a private root (view.hpp): the child sees only
//     its view of the file system, and a /proc of its own processes.
//   - Landlock (landlock.hpp): read-only access to the view's read-only
//     paths, read-write to its writable ones, nothing else.
//   - running as root: a user of its own (identity.hpp).
//   - rlimits (address space, CPU, file size, processes, core dumps), set
//     by process.cpp; a cgroup for memory, processes and CPU time (runner_cgroup.hpp) made by the caller.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>

#include "sandbox/identity.hpp"
#include "sandbox/view.hpp"

namespace judge {

struct SandboxSupport {
  bool namespaces = false;      // new PID, network, IPC and cgroup namespaces for each child
  bool user_namespace = false;  // needed for them when not root
  std::string namespaces_missing;
  bool private_root = false;  // a mount namespace whose root holds only the child's view
  std::string private_root_missing;
  bool fresh_proc = false;  // a /proc of the child's PID namespace inside that root
  std::string fresh_proc_missing;
  int landlock_abi = 0;  // 0: unavailable
  std::string landlock_missing;
  bool drop_to_nobody = false;  // the judge runs as root
  // Not root, with a private root: runners are mapped to subordinate ids of
  // the judge's user (identity.hpp) instead of keeping its own.
  std::optional<SubordinateIds> subordinate;
  std::string subordinate_missing;
  // Not root: RLIMIT_NPROC set inside a child's user namespace counts only
  // that namespace's processes and threads (Linux 5.14 and later), so it
  // caps a child that keeps the judge's user.
  bool namespace_process_cap = false;
  std::string namespace_process_cap_missing;
  // Whether a runner runs as a user other than the judge's.
  bool runner_has_own_user() const { return drop_to_nobody || subordinate.has_value(); }
  // Whether RLIMIT_NPROC caps a sandboxed child's processes and threads:
  // it has a user of its own, or a user namespace that counts them apart.
  bool rlimit_caps_processes() const { return runner_has_own_user() || namespace_process_cap; }
  // Whether something keeps a child from the judge's files: a private root
  // or Landlock.
  bool file_sandbox() const { return private_root || landlock_abi >= 1; }
};

// Probed once per process (forks short-lived children to try them).
const SandboxSupport& sandbox_support();

// How a sandboxed child will name the path `inside` of `view`: itself with
// a private root, else the host path it maps to (for environment
// variables and arguments that name paths).
std::string path_in_sandbox(const SandboxView& view, const std::string& inside);

namespace sandbox_child {
// Called between fork and exec: only system calls, no allocation. New PID,
// network, IPC and cgroup namespaces (and a mount namespace when
// `mount_namespace`),
// inside a user namespace when the judge is not root. That namespace maps
// `outer_uid` and `outer_gid` to themselves, or, when `map_request_fd` is
// not -1, whatever the parent maps (subordinate ids): this process writes a
// byte to `map_request_fd` and waits for '1' on `map_done_fd`. False (errno
// set) on failure.
bool enter_namespaces(const SandboxSupport& support, bool mount_namespace, uid_t outer_uid, gid_t outer_gid,
                      int map_request_fd = -1, int map_done_fd = -1);
}  // namespace sandbox_child

}  // namespace judge
