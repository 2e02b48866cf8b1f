// Runner user ids, subordinate ids, and dropping to them.
#include "sandbox/identity.hpp"

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "util/errors.hpp"
#include "util/files.hpp"

extern char** environ;

namespace judge {
namespace {
constexpr std::uint32_t kRunnerUidBase = 0x50000000u;
constexpr std::uint32_t kRunnerUidCount = 1u << 28;

// The machine's counter of handed-out ids: a file only this user may
// write, locked while it is read and advanced. Empty when none can be had.
std::string counter_path() {
  if (geteuid() == 0) return "/run/judge-runner-ids";
  const char* runtime = std::getenv("XDG_RUNTIME_DIR");
  struct stat info {};
  if (runtime && *runtime == '/' && stat(runtime, &info) == 0 && S_ISDIR(info.st_mode) && info.st_uid == geteuid())
    return std::string(runtime) + "/judge-runner-ids";
  return "/tmp/judge-runner-ids-" + std::to_string(geteuid());
}

// The next value of the machine's counter; nullopt when its file cannot be
// used (not this user's own regular file, say).
std::optional<std::uint64_t> advance_shared_counter() {
  static const std::string path = counter_path();
  int fd = open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return std::nullopt;
  struct stat info {};
  std::optional<std::uint64_t> next;
  if (fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_uid == geteuid() && (info.st_mode & 022) == 0 &&
      flock(fd, LOCK_EX) == 0) {
    std::uint64_t value = 0;
    if (pread(fd, &value, sizeof value, 0) != static_cast<ssize_t>(sizeof value)) value = 0;
    ++value;
    if (pwrite(fd, &value, sizeof value, 0) == static_cast<ssize_t>(sizeof value)) next = value;
  }
  close(fd);  // releases the lock
  return next;
}

// This process's own counter, where the machine's cannot be used: it
// starts from the process id, so that judges running at once most likely
// differ.
std::uint64_t advance_own_counter() {
  static std::atomic<std::uint64_t> counter{(static_cast<std::uint64_t>(getpid()) & 0x3fffffu) << 6};
  return ++counter;
}

// The serials leased now, per range.
std::mutex leased_mutex;
std::set<std::pair<std::uint64_t, std::uint32_t>>& leased() {
  static std::set<std::pair<std::uint64_t, std::uint32_t>> serials;
  return serials;
}

std::string executable_in(const std::vector<std::string>& directories, const char* name) {
  for (const std::string& directory : directories) {
    std::string path = directory + "/" + name;
    if (access(path.c_str(), X_OK) == 0) return path;
  }
  return "";
}

// Runs `argv` (a setuid helper) and waits for it; false with *error when it
// does not exit 0.
bool run_helper(const std::vector<std::string>& argv, std::string* error) {
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int failed = posix_spawn(&pid, args[0], nullptr, nullptr, args.data(), environ);
  if (failed != 0) {
    *error = fmt::format("{}: {}", argv[0], std::strerror(failed));
    return false;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
  *error = fmt::format("{} {} {} {} {} failed (status {})", argv[0], argv[1], argv[2], argv[3], argv[4], status);
  return false;
}
}  // namespace

// A lease on the next serial of a range of `count` ids that is not leased
// already, as ids `first_uid + serial` and `first_gid + serial` (in pool 0,
// the root judge's, `first_gid` for every serial: group nobody). Throws
// JudgeFault when every serial of the range is leased.
RunnerIds take_ids(std::uint64_t pool, std::uint32_t first_uid, std::uint32_t count, gid_t first_gid) {
  RunnerIds ids;
  std::lock_guard<std::mutex> lock(leased_mutex);
  std::size_t in_pool =
      std::count_if(leased().begin(), leased().end(), [&](const auto& lease) { return lease.first == pool; });
  if (in_pool >= count)
    throw JudgeFault{
        fmt::format("all {} ids for runners are in use by this judge's runners; give it fewer jobs", count)};
  for (std::uint32_t tries = 0;; ++tries) {
    std::optional<std::uint64_t> shared = tries < count ? advance_shared_counter() : std::nullopt;
    std::uint32_t serial = static_cast<std::uint32_t>((shared ? *shared : advance_own_counter()) % count);
    if (leased().insert({pool, serial}).second) {
      ids.held_ = true;
      ids.pool_ = pool;
      ids.serial_ = serial;
      ids.uid_ = static_cast<uid_t>(first_uid + serial);
      ids.gid_ = pool == 0 ? first_gid : static_cast<gid_t>(first_gid + serial);
      return ids;
    }
  }
}

RunnerIds::RunnerIds(RunnerIds&& other) noexcept { *this = std::move(other); }

RunnerIds& RunnerIds::operator=(RunnerIds&& other) noexcept {
  if (this == &other) return *this;
  release();
  held_ = std::exchange(other.held_, false);
  pool_ = other.pool_;
  serial_ = other.serial_;
  uid_ = other.uid_;
  gid_ = other.gid_;
  return *this;
}

RunnerIds::~RunnerIds() { release(); }

void RunnerIds::release() {
  if (!held_) return;
  std::lock_guard<std::mutex> lock(leased_mutex);
  leased().erase({pool_, serial_});
  held_ = false;
}

RunnerIds take_runner_ids() { return take_ids(0, kRunnerUidBase, kRunnerUidCount, kNobody); }

std::optional<IdRange> subordinate_range(const std::string& text, const std::string& user_name, std::uint32_t id) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::size_t first_colon = line.find(':');
    std::size_t second_colon = first_colon == std::string::npos ? first_colon : line.find(':', first_colon + 1);
    if (second_colon == std::string::npos) continue;
    std::string owner = line.substr(0, first_colon);
    if (owner != user_name && owner != std::to_string(id)) continue;
    try {
      unsigned long first = std::stoul(line.substr(first_colon + 1, second_colon - first_colon - 1));
      unsigned long count = std::stoul(line.substr(second_colon + 1));
      if (count >= 1 && first <= 0xffffffffu && count <= 0xffffffffu - first)
        return IdRange{static_cast<std::uint32_t>(first), static_cast<std::uint32_t>(count)};
    } catch (const std::exception&) {
    }
  }
  return std::nullopt;
}

std::optional<SubordinateIds> find_subordinate_ids(std::string* missing) {
  SubordinateIds ids;
  ids.newuidmap = executable_in({"/usr/bin", "/bin", "/usr/sbin", "/sbin"}, "newuidmap");
  ids.newgidmap = executable_in({"/usr/bin", "/bin", "/usr/sbin", "/sbin"}, "newgidmap");
  if (ids.newuidmap.empty() || ids.newgidmap.empty()) {
    *missing = "newuidmap and newgidmap are not installed (Debian package uidmap)";
    return std::nullopt;
  }
  std::string name;
  char buffer[4096];
  passwd entry{}, *found = nullptr;
  if (getpwuid_r(getuid(), &entry, buffer, sizeof buffer, &found) == 0 && found) name = found->pw_name;
  std::optional<IdRange> uids = subordinate_range(read_file_or_empty("/etc/subuid"), name, getuid());
  // newgidmap looks the user's name up in /etc/subgid, as newuidmap does.
  std::optional<IdRange> gids = subordinate_range(read_file_or_empty("/etc/subgid"), name, getuid());
  if (!uids || !gids) {
    *missing = fmt::format(
        "your user ({}) has no range in /etc/{} (e.g. usermod --add-subuids 100000-165535 "
        "--add-subgids 100000-165535 {})",
        name.empty() ? std::to_string(getuid()) : name, uids ? "subgid" : "subuid", name.empty() ? "USER" : name);
    return std::nullopt;
  }
  ids.uids = *uids;
  ids.gids = *gids;
  return ids;
}

RunnerIds take_subordinate_ids(const SubordinateIds& ids) {
  std::uint32_t span = std::min(ids.uids.count, ids.gids.count);
  // One pool per range, told apart from the root judge's (0).
  std::uint64_t pool = (std::uint64_t{ids.uids.first} << 32 | ids.gids.first) + 1;
  return take_ids(pool, ids.uids.first, span, ids.gids.first);
}

bool map_subordinate_ids(const SubordinateIds& ids, pid_t pid, uid_t uid, gid_t gid, std::string* error) {
  std::string target = std::to_string(pid);
  return run_helper({ids.newuidmap, target, std::to_string(uid), std::to_string(uid), "1"}, error) &&
         run_helper({ids.newgidmap, target, std::to_string(gid), std::to_string(gid), "1"}, error);
}

namespace sandbox_child {

bool drop_privileges(uid_t uid, gid_t gid) {
  return setgroups(0, nullptr) == 0 && setresgid(gid, gid, gid) == 0 && setresuid(uid, uid, uid) == 0;
}

}  // namespace sandbox_child
}  // namespace judge
