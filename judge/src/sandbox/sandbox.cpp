// Probing what the machine allows, and entering the namespaces.
#include "sandbox/sandbox.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "sandbox/landlock.hpp"

namespace judge {
namespace {
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

SandboxPaths default_sandbox_paths(const std::string& scratch_dir, const std::string& executable) {
  SandboxPaths paths;
  paths.read_only = {
      "/usr",  "/lib",      "/lib64",    "/lib32",       "/bin",        "/etc/ld.so.cache",       "/etc/localtime",
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

}  // namespace sandbox_child
}  // namespace judge
