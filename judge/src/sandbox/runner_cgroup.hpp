// A cgroup around each runner and each sandboxed compile: the kernel counts
// every page, process and CPU cycle of the child and everything it starts.
//   memory  the limit that kills (an address-space limit counts
//           reservations, not memory, and breaks AddressSanitizer, whose
//           shadow alone reserves terabytes);
//   pids    a cap on processes that holds whoever the child runs as
//           (RLIMIT_NPROC counts per user, so it caps nothing when the
//           runner shares the judge's user);
//   cpu     the CPU time of the whole tree, which performance checks read.
//
// cgroup v2 is used where the memory controller is enabled for the judge's
// own cgroup (root, or a delegated subtree such as systemd's user@UID.service);
// otherwise cgroup v1 where its memory hierarchy is writable, with the pids
// and cpuacct hierarchies when they are writable too; otherwise none, and
// the runner falls back to RLIMIT_AS, RLIMIT_NPROC and its process's clock.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace judge {

enum class CgroupVersion { kV1, kV2 };

// A directory of one cgroup hierarchy.
struct CgroupLocation {
  CgroupVersion version = CgroupVersion::kV2;
  std::string directory;  // e.g. /sys/fs/cgroup/user.slice/... or /sys/fs/cgroup/memory/...
};

// Reads /proc/self/mountinfo and /proc/self/cgroup (their texts, so tests
// can pass made-up ones): the judge's own cgroup in the unified hierarchy,
// and in the v1 hierarchies of the memory, pids and cpuacct controllers,
// where they are mounted.
struct CgroupCandidates {
  std::optional<CgroupLocation> v2;
  std::optional<CgroupLocation> v1;  // memory
  std::optional<CgroupLocation> v1_pids;
  std::optional<CgroupLocation> v1_cpuacct;
};
CgroupCandidates find_cgroups(const std::string& mountinfo, const std::string& proc_self_cgroup);

// Probed once per process: where the judge can make children's cgroups,
// and with which controllers. `*_missing` says why one is not there.
struct CgroupSupport {
  bool available = false;  // memory, the one a cgroup is made for
  CgroupLocation parent;   // memory (and, for v2, every controller)
  std::string missing;
  bool pids = false;
  std::optional<CgroupLocation> v1_pids_parent;
  std::string pids_missing;
  bool cpu = false;
  std::optional<CgroupLocation> v1_cpuacct_parent;
  std::string cpu_missing;
};
const CgroupSupport& cgroup_support();

// Whether runners and compiles get cgroups now: not when unsupported, nor
// when JUDGE_NO_MEMORY_CGROUP is on (to use, or test, the fallbacks).
bool cgroups_in_use();
inline constexpr const char* kNoMemoryCgroupVariable = "JUDGE_NO_MEMORY_CGROUP";

// The number after `key` in a cgroup key-value file ("oom_kill 3").
std::optional<std::uint64_t> cgroup_key_value(const std::string& text, const std::string& key);

class RunnerCgroup {
 public:
  // Makes fresh cgroups under `support`'s parents: memory limited to
  // `memory_bytes` (swap included where the kernel accounts it) and, where
  // the pids controller is there, processes to `max_processes`. Null and
  // *error on failure.
  static std::unique_ptr<RunnerCgroup> create(const CgroupSupport& support, std::uint64_t memory_bytes,
                                              int max_processes, std::string* error);
  ~RunnerCgroup();  // kills what is left inside (v2) and removes the cgroups
  RunnerCgroup(const RunnerCgroup&) = delete;
  RunnerCgroup& operator=(const RunnerCgroup&) = delete;

  // Open for writing, close-on-exec, one per hierarchy: a forked child
  // writes "0" to each to move itself in before it execs, so nothing it
  // runs is ever outside.
  std::vector<int> procs_fds() const;
  // The kernel's out-of-memory killer acted inside since creation.
  bool out_of_memory() const;
  // The most memory used at once, in bytes (0 when the kernel does not say).
  std::uint64_t peak_bytes() const;
  // The CPU time of everything that ran inside, in milliseconds; nullopt
  // without CPU accounting.
  std::optional<double> cpu_ms() const;
  bool limits_processes() const { return limits_processes_; }
  const std::string& directory() const { return memory_->directory; }

 private:
  // One cgroup directory, with its cgroup.procs open.
  struct Member {
    std::string directory;
    int procs_fd = -1;
  };
  RunnerCgroup() = default;
  bool add(const CgroupLocation& parent, std::optional<Member>* member, std::string* error);
  CgroupVersion version_ = CgroupVersion::kV2;
  std::optional<Member> memory_;   // under v2, the one cgroup, with every controller
  std::optional<Member> pids_;     // v1 only
  std::optional<Member> cpuacct_;  // v1 only
  bool limits_processes_ = false;
};

}  // namespace judge
