// The user a sandboxed child runs as. When the judge is root, each runner
// drops to a user of its own (group nobody): the kernel counts
// RLIMIT_NPROC per user, so one runner's fork bomb cannot stop another
// from starting, and file permissions apply to it.
#pragma once

#include <sys/types.h>

namespace judge {

inline constexpr gid_t kNobody = 65534;

// A user id for the next runner: in a range no distribution assigns to
// accounts (from 0x50000000), different for every runner of this process
// and, by its process id, very likely from other judges' runners.
uid_t next_runner_uid();

namespace sandbox_child {
// Between fork and exec: no supplementary groups, group nobody, user `uid`.
// False (errno set) on failure.
bool drop_privileges(uid_t uid);
}  // namespace sandbox_child

}  // namespace judge
