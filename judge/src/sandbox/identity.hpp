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

// The user and group a sandboxed child runs as, leased to it until every
// process of that child is gone (the Child that holds the lease has been
// reaped): while the lease lives, no other sandbox of this judge is given
// them. Ids come from a counter shared by every judge of the machine (a
// file under /run, or the user's runtime directory), so judges running at
// once get different ids too, and an id comes round again only after the
// whole range has been handed out.
class RunnerIds {
 public:
  RunnerIds() = default;  // no ids
  RunnerIds(RunnerIds&& other) noexcept;
  RunnerIds& operator=(RunnerIds&& other) noexcept;
  RunnerIds(const RunnerIds&) = delete;
  RunnerIds& operator=(const RunnerIds&) = delete;
  ~RunnerIds();  // releases the lease

  bool held() const { return held_; }
  uid_t uid() const { return uid_; }
  gid_t gid() const { return gid_; }

 private:
  friend RunnerIds take_ids(std::uint64_t, std::uint32_t, std::uint32_t, gid_t);
  void release();
  bool held_ = false;
  std::uint64_t pool_ = 0;  // which range the serial counts in
  std::uint32_t serial_ = 0;
  uid_t uid_ = 0;
  gid_t gid_ = 0;
};

// Ids for the next runner of a root judge: a user id from 0x50000000 to
// 0x5fffffff (2^28 of them, an unused range of every distribution), group
// nobody.
RunnerIds take_runner_ids();

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

// Ids for the next runner under `ids` (user and group, the same offset in
// both ranges, bounded by the smaller).
RunnerIds take_subordinate_ids(const SubordinateIds& ids);

// Runs newuidmap and newgidmap to map `uid` and `gid` to themselves in the
// user namespace of process `pid`. False with *error on failure.
bool map_subordinate_ids(const SubordinateIds& ids, pid_t pid, uid_t uid, gid_t gid, std::string* error);

namespace sandbox_child {
// Between fork and exec: no supplementary groups, group `gid`, user `uid`.
// False (errno set) on failure.
bool drop_privileges(uid_t uid, gid_t gid);
}  // namespace sandbox_child

}  // namespace judge
