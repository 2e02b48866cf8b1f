// Probing and applying the runner's sandbox.
#include "sandbox.hpp"

#include "memory_cgroup.hpp"

#include <fcntl.h>
#include <grp.h>
#include <linux/landlock.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>

namespace judge {
namespace {
// Landlock's ABI grew after the kernel headers Debian 12 ships; the newer
// fields and bits are stable kernel ABI, spelled out here.
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
constexpr std::uint64_t kFsRead = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
constexpr std::uint64_t kFileRights = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE |
                                      LANDLOCK_ACCESS_FS_WRITE_FILE | kFsTruncate | kFsIoctlDev;

std::uint64_t handled_fs(int abi) {
  std::uint64_t rights = (1ull << 13) - 1;  // ABI 1: bits 0..12
  if (abi >= 2) rights |= kFsRefer;
  if (abi >= 3) rights |= kFsTruncate;
  if (abi >= 5) rights |= kFsIoctlDev;
  return rights;
}

int probe_landlock(std::string* missing) {
  long abi = syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
  if (abi < 0) {
    *missing = errno == ENOSYS     ? "the kernel was built without Landlock"
               : errno == EOPNOTSUPP ? "Landlock is disabled at boot (add landlock to lsm=)"
                                     : fmt::format("landlock_create_ruleset: {}", std::strerror(errno));
    return 0;
  }
  return static_cast<int>(abi);
}

// Tries the namespaces in a throwaway child, so the judge itself is untouched.
bool probe_namespaces(bool user_namespace, std::string* missing) {
  pid_t child = fork();
  if (child < 0) return *missing = fmt::format("fork: {}", std::strerror(errno)), false;
  if (child == 0) {
    int flags = CLONE_NEWPID | CLONE_NEWNET | (user_namespace ? CLONE_NEWUSER : 0);
    _exit(unshare(flags) == 0 ? 0 : (errno & 0xff));
  }
  int status = 0;
  waitpid(child, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
  int error = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
  *missing = fmt::format("unshare(CLONE_NEWPID | CLONE_NEWNET{}): {}{}", user_namespace ? " | CLONE_NEWUSER" : "",
                         std::strerror(error),
                         user_namespace ? " (unprivileged user namespaces may be disabled: "
                                          "sysctl kernel.unprivileged_userns_clone or user.max_user_namespaces)"
                                        : "");
  return false;
}

bool write_file(const char* path, const char* text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  ssize_t length = static_cast<ssize_t>(strlen(text));
  bool ok = write(fd, text, static_cast<size_t>(length)) == length;
  close(fd);
  return ok;
}

bool add_rule(int ruleset, const char* path, std::uint64_t rights, std::uint64_t handled) {
  int fd = open(path, O_PATH | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT;  // a directory this system lacks: nothing to allow
  struct stat info;
  if (fstat(fd, &info) == 0 && !S_ISDIR(info.st_mode)) rights &= kFileRights;
  PathBeneathAttr rule{rights & handled, fd};
  long result = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
  close(fd);
  return result == 0;
}
}  // namespace

const SandboxSupport& sandbox_support() {
  static const SandboxSupport support = [] {
    SandboxSupport s;
    s.drop_to_nobody = geteuid() == 0;
    s.user_namespace = geteuid() != 0;
    s.namespaces = probe_namespaces(s.user_namespace, &s.namespaces_missing);
    s.landlock_abi = probe_landlock(&s.landlock_missing);
    return s;
  }();
  return support;
}

std::vector<ProtectionReport> describe_protections() {
  const SandboxSupport& s = sandbox_support();
  std::vector<ProtectionReport> out;
  out.push_back({"process group", true, "SIGTERM then SIGKILL to the runner's whole group on a time limit"});
  out.push_back({"pid namespace", s.namespaces,
                 s.namespaces ? "descendants die with the runner, even after setsid"
                              : s.namespaces_missing + "; descendants that leave the process group can outlive it"});
  out.push_back({"network namespace", s.namespaces, s.namespaces ? "no network interfaces but a downed loopback" : s.namespaces_missing});
  out.push_back({"landlock filesystem", s.landlock_abi >= 1,
                 s.landlock_abi >= 1 ? fmt::format("ABI {}: system directories read-only, scratch directory read-write, "
                                                   "problems and solutions unreadable", s.landlock_abi)
                                     : s.landlock_missing + "; the runner can read what the judge's user can"});
  out.push_back({"landlock tcp", s.landlock_abi >= 4,
                 s.landlock_abi >= 4 ? "TCP bind and connect denied"
                                     : fmt::format("needs Landlock ABI 4, have {}", s.landlock_abi)});
  out.push_back({"landlock scopes", s.landlock_abi >= 6,
                 s.landlock_abi >= 6 ? "no signals to, and no abstract sockets of, processes outside the sandbox"
                                     : fmt::format("needs Landlock ABI 6, have {}", s.landlock_abi)});
  out.push_back({"unprivileged user", s.drop_to_nobody,
                 s.drop_to_nobody ? "runs as a user of its own, group nobody (the judge is root); RLIMIT_NPROC caps "
                                    "its processes at 64"
                                  : "the judge is not root: the runner keeps your user; RLIMIT_NPROC is not applied "
                                    "(it would count all your processes)"});
  const MemoryCgroupSupport& memory = memory_cgroup_support();
  const char* disabled = std::getenv(kNoMemoryCgroupVariable);
  if (memory.available && disabled && *disabled)
    out.push_back({"memory cgroup", false,
                   fmt::format("available, but {} is set; RLIMIT_AS at the problem's limit instead", kNoMemoryCgroupVariable)});
  else if (memory.available)
    out.push_back({"memory cgroup", true,
                   fmt::format("{} under {}: resident memory capped at the problem's limit, sanitized runs included",
                               memory.parent.version == CgroupVersion::kV2 ? "cgroup v2 memory.max" : "cgroup v1 memory.limit_in_bytes",
                               memory.parent.directory)});
  else
    out.push_back({"memory cgroup", false,
                   memory.missing + "; RLIMIT_AS at the problem's limit instead (not under --sanitize, where "
                                    "AddressSanitizer's own allocation and resident-memory limits apply)"});
  out.push_back({"cpu and wall time", true, "RLIMIT_CPU as a backstop; per-case wall-clock limit enforced by the judge"});
  out.push_back({"output", true, "stdout/stderr drained by the judge; 16 KiB per case kept, the rest discarded"});
  out.push_back({"files", true, "RLIMIT_FSIZE 16 MiB; the scratch directory is removed after the run"});
  out.push_back({"descriptors and environment", true, "only 0, 1, 2 and the judge's channel; a clean environment"});
  out.push_back({"core dumps", true, "RLIMIT_CORE 0"});
  return out;
}

uid_t next_runner_uid() {
  static std::atomic<std::uint32_t> counter{0};
  std::uint32_t mixed = (static_cast<std::uint32_t>(getpid()) << 10) ^ counter++;
  return static_cast<uid_t>(0x50000000u + (mixed & 0x0fffffffu));
}

SandboxPaths default_sandbox_paths(const std::string& scratch_dir, const std::string& executable) {
  SandboxPaths paths;
  paths.read_only = {"/usr", "/lib", "/lib64", "/lib32", "/bin", "/etc/ld.so.cache", "/etc/localtime",
                     "/proc", "/dev/null", "/dev/zero", "/dev/urandom", "/dev/random", "/sys/devices/system/cpu"};
  paths.read_write = scratch_dir;
  paths.executable = executable;
  return paths;
}

namespace sandbox_child {

bool enter_namespaces(const SandboxSupport& support, uid_t outer_uid, gid_t outer_gid) {
  int flags = CLONE_NEWPID | CLONE_NEWNET | (support.user_namespace ? CLONE_NEWUSER : 0);
  if (unshare(flags) != 0) return false;
  if (support.user_namespace) {
    char map[64];
    if (!write_file("/proc/self/setgroups", "deny")) return false;
    snprintf(map, sizeof map, "%u %u 1\n", static_cast<unsigned>(outer_uid), static_cast<unsigned>(outer_uid));
    if (!write_file("/proc/self/uid_map", map)) return false;
    snprintf(map, sizeof map, "%u %u 1\n", static_cast<unsigned>(outer_gid), static_cast<unsigned>(outer_gid));
    if (!write_file("/proc/self/gid_map", map)) return false;
  }
  return true;
}

int filesystem_ruleset(int landlock_abi, const char* const* read_only, const char* read_write,
                       const char* executable) {
  RulesetAttr attr{handled_fs(landlock_abi), 0, 0};
  std::size_t size = sizeof(std::uint64_t);
  if (landlock_abi >= 4) attr.handled_access_net = kNetBindTcp | kNetConnectTcp, size = 2 * sizeof(std::uint64_t);
  if (landlock_abi >= 6) attr.scoped = kScopeAbstractUnix | kScopeSignal, size = sizeof attr;
  int ruleset = static_cast<int>(syscall(SYS_landlock_create_ruleset, &attr, size, 0));
  if (ruleset < 0) return false;
  bool ok = true;
  for (const char* const* path = read_only; *path && ok; ++path) ok = add_rule(ruleset, *path, kFsRead, attr.handled_access_fs);
  ok = ok && add_rule(ruleset, read_write, attr.handled_access_fs, attr.handled_access_fs);
  ok = ok && add_rule(ruleset, executable, LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE, attr.handled_access_fs);
  if (!ok) {
    close(ruleset);
    return -1;
  }
  return ruleset;
}

bool enforce_ruleset(int ruleset) {
  bool ok = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && syscall(SYS_landlock_restrict_self, ruleset, 0) == 0;
  close(ruleset);
  return ok;
}

bool drop_privileges(uid_t uid) {
  return setgroups(0, nullptr) == 0 && setresgid(kNobody, kNobody, kNobody) == 0 &&
         setresuid(uid, uid, uid) == 0;
}

}  // namespace sandbox_child
}  // namespace judge
