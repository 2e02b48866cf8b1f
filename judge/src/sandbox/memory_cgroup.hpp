// A memory cgroup around each runner: the kernel counts every page the
// runner and its descendants touch and kills at the limit, which an
// address-space limit cannot do (it counts reservations, not memory, and
// breaks AddressSanitizer, whose shadow alone reserves terabytes).
//
// cgroup v2 (`memory.max`, `memory.events`) is used where the memory
// controller is enabled for the judge's own cgroup; otherwise cgroup v1
// (`memory.limit_in_bytes`, `memory.oom_control`) where its hierarchy is
// writable; otherwise none, and the runner falls back to RLIMIT_AS.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace judge {

enum class CgroupVersion { kV1, kV2 };

// Where the judge's own memory cgroup lives in the file system.
struct CgroupLocation {
  CgroupVersion version = CgroupVersion::kV2;
  std::string directory;  // e.g. /sys/fs/cgroup/user.slice/... or /sys/fs/cgroup/memory/...
};

// Reads /proc/self/mountinfo and /proc/self/cgroup (their texts, so tests
// can pass made-up ones). Returns the v2 location when the unified hierarchy
// is mounted and the v1 one when a memory hierarchy is, v2 first.
struct CgroupCandidates {
  std::optional<CgroupLocation> v2;
  std::optional<CgroupLocation> v1;
};
CgroupCandidates find_memory_cgroups(const std::string& mountinfo, const std::string& proc_self_cgroup);

// Probed once per process: can the judge make child cgroups with a memory
// limit here? `missing` says why not.
struct MemoryCgroupSupport {
  bool available = false;
  CgroupLocation parent;  // runners' cgroups are made inside this directory
  std::string missing;
};
const MemoryCgroupSupport& memory_cgroup_support();

// Where runners' cgroups go now: none when unsupported, or when
// JUDGE_NO_MEMORY_CGROUP is set (to use, or test, the address-space limit).
std::optional<CgroupLocation> memory_cgroup_parent();
inline constexpr const char* kNoMemoryCgroupVariable = "JUDGE_NO_MEMORY_CGROUP";

// The number after `key` in a cgroup key-value file ("oom_kill 3").
std::optional<std::uint64_t> cgroup_key_value(const std::string& text, const std::string& key);

class MemoryCgroup {
 public:
  // Makes a fresh cgroup under `parent` limited to `limit_bytes` (swap
  // included where the kernel accounts it). Null and *error on failure.
  static std::unique_ptr<MemoryCgroup> create(const CgroupLocation& parent, std::uint64_t limit_bytes,
                                              std::string* error);
  ~MemoryCgroup();  // kills what is left inside (v2) and removes the cgroup

  // Open for writing, close-on-exec: a forked child writes "0" to it to move
  // itself in before it execs, so nothing it runs is ever outside.
  int procs_fd() const { return procs_fd_; }
  // The kernel's out-of-memory killer acted inside since creation.
  bool out_of_memory() const;
  // The most memory used at once, in bytes (0 when the kernel does not say).
  std::uint64_t peak_bytes() const;
  const std::string& directory() const { return directory_; }

 private:
  MemoryCgroup() = default;
  CgroupVersion version_ = CgroupVersion::kV2;
  std::string directory_;
  int procs_fd_ = -1;
};

}  // namespace judge
