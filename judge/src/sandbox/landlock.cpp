// Landlock rulesets, built and enforced in a forked child.
#include "sandbox/landlock.hpp"

#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <fmt/format.h>
#include <cerrno>
#include <cstdint>
#include <cstring>

namespace judge {
namespace {
struct RulesetAttr {
  std::uint64_t handled_access_fs;
  std::uint64_t handled_access_net;  // ABI 4
  std::uint64_t scoped;              // ABI 6
};
struct PathBeneathAttr {
  std::uint64_t allowed_access;
  std::int32_t parent_fd;
} __attribute__((packed));
constexpr std::uint64_t kFsRefer = 1ull << 13;     // ABI 2
constexpr std::uint64_t kFsTruncate = 1ull << 14;  // ABI 3
constexpr std::uint64_t kFsIoctlDev = 1ull << 15;  // ABI 5
constexpr std::uint64_t kNetBindTcp = 1ull << 0;
constexpr std::uint64_t kNetConnectTcp = 1ull << 1;
constexpr std::uint64_t kScopeAbstractUnix = 1ull << 0;
constexpr std::uint64_t kScopeSignal = 1ull << 1;
constexpr std::uint64_t kFsRead =
    LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
// The rights that apply to a file rather than a directory.
constexpr std::uint64_t kFileRights = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE |
                                      LANDLOCK_ACCESS_FS_WRITE_FILE | kFsTruncate | kFsIoctlDev;

std::uint64_t handled_fs(int abi) {
  std::uint64_t rights = (1ull << 13) - 1;  // ABI 1: bits 0..12
  if (abi >= 2) rights |= kFsRefer;
  if (abi >= 3) rights |= kFsTruncate;
  if (abi >= 5) rights |= kFsIoctlDev;
  return rights;
}

bool add_rule_for(int ruleset, int fd, std::uint64_t rights, std::uint64_t handled) {
  struct stat info;
  if (fstat(fd, &info) == 0 && !S_ISDIR(info.st_mode)) rights &= kFileRights;
  PathBeneathAttr rule{rights & handled, fd};
  return syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0) == 0;
}

bool add_rule(int ruleset, const char* path, std::uint64_t rights, std::uint64_t handled) {
  int fd = open(path, O_PATH | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT;  // a directory this system lacks: nothing to allow
  bool ok = add_rule_for(ruleset, fd, rights, handled);
  close(fd);
  return ok;
}
}  // namespace

int probe_landlock(std::string* missing) {
  long abi = syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
  if (abi < 0) {
    *missing = errno == ENOSYS       ? "the kernel was built without Landlock"
               : errno == EOPNOTSUPP ? "Landlock is disabled at boot (add landlock to lsm=)"
                                     : fmt::format("landlock_create_ruleset: {}", std::strerror(errno));
    return 0;
  }
  return static_cast<int>(abi);
}

namespace sandbox_child {

int filesystem_ruleset(int landlock_abi, const char* const* readable, const char* const* writable, int executable_fd) {
  RulesetAttr attr{handled_fs(landlock_abi), 0, 0};
  std::size_t size = sizeof(std::uint64_t);
  if (landlock_abi >= 4) attr.handled_access_net = kNetBindTcp | kNetConnectTcp, size = 2 * sizeof(std::uint64_t);
  if (landlock_abi >= 6) attr.scoped = kScopeAbstractUnix | kScopeSignal, size = sizeof attr;
  int ruleset = static_cast<int>(syscall(SYS_landlock_create_ruleset, &attr, size, 0));
  if (ruleset < 0) return -1;
  bool ok = true;
  for (const char* const* path = readable; *path && ok; ++path)
    ok = add_rule(ruleset, *path, kFsRead, attr.handled_access_fs);
  for (const char* const* path = writable; *path && ok; ++path)
    ok = add_rule(ruleset, *path, attr.handled_access_fs, attr.handled_access_fs);
  ok = ok && add_rule_for(ruleset, executable_fd, LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE,
                          attr.handled_access_fs);
  if (!ok) {
    int error = errno;
    close(ruleset);
    errno = error;
    return -1;
  }
  return ruleset;
}

bool enforce_ruleset(int ruleset) {
  bool ok = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && syscall(SYS_landlock_restrict_self, ruleset, 0) == 0;
  int error = errno;
  close(ruleset);
  errno = error;
  return ok;
}

}  // namespace sandbox_child
}  // namespace judge
