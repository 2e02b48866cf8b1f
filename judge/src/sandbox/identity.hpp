// The user a sandboxed runner runs as: a user of its own, never the judge's.
//   - When the judge is root, each runner drops to a user id from a range
//     no distribution assigns to accounts (group nobody): the kernel counts
//     RLIMIT_NPROC per user, so one runner's fork bomb cannot stop another
//     from starting, and file permissions apply to it.
//   - When the judge is an ordinary user with subordinate ids (/etc/subuid
//     and /etc/subgid, mapped by the setuid helpers newuidmap and newgidmap
//     of Debian's `uidmap`), the runner's user namespace maps it to one of
//     them: it cannot reach the judge's user's files, sockets or processes.
//   - Otherwise the runner keeps the judge's user, and only the system-call
//     filter stands between it and that user's unix sockets.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>

namespace judge {

inline constexpr gid_t kNobody = 65534;

// A user id for the next runner of a root judge: from 0x50000000, made of
// this process's id (below 2^22, the kernel's largest pid_max) and a
// counter of 6 bits, so no two judges running at once share one, and a
// judge reuses one only 64 runners later.
uid_t next_runner_uid();

// The first id and the size of a user's range in an /etc/subuid-style
// text ("name-or-uid:first:count" per line); nullopt when it has none.
struct IdRange {
  std::uint32_t first = 0;
  std::uint32_t count = 0;
};
std::optional<IdRange> subordinate_range(const std::string& text, const std::string& user_name, std::uint32_t id);

// The judge's user's subordinate ids and the helpers that map them.
struct SubordinateIds {
  IdRange uids, gids;
  std::string newuidmap, newgidmap;  // absolute paths
};
// Read once; nullopt with *missing saying why when there are none.
std::optional<SubordinateIds> find_subordinate_ids(std::string* missing);

// The ids (user and group, the same offset in both ranges) for the next
// runner under `ids`: every runner of this process differs from the last
// 64, and from other judges' most likely.
std::pair<uid_t, gid_t> next_subordinate_ids(const SubordinateIds& ids);

// Runs newuidmap and newgidmap to map `uid` and `gid` to themselves in the
// user namespace of process `pid`. False with *error on failure.
bool map_subordinate_ids(const SubordinateIds& ids, pid_t pid, uid_t uid, gid_t gid, std::string* error);

namespace sandbox_child {
// Between fork and exec: no supplementary groups, group `gid`, user `uid`.
// False (errno set) on failure.
bool drop_privileges(uid_t uid, gid_t gid);
}  // namespace sandbox_child

}  // namespace judge
