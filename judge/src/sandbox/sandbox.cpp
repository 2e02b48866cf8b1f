// Probing what the machine allows, and entering the namespaces.
#include "sandbox/sandbox.hpp"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "sandbox/landlock.hpp"
#include "sandbox/system_mounts.hpp"
#include "sandbox/view.hpp"

namespace judge {
namespace {
std::string describe_unshare(bool user_namespace, int error, const char* extra) {
  return fmt::format("unshare(CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWCGROUP{}{}): {}{}", extra,
                     user_namespace ? " | CLONE_NEWUSER" : "", std::strerror(error),
                     user_namespace ? " (unprivileged user namespaces may be disabled: "
                                      "sysctl kernel.unprivileged_userns_clone or user.max_user_namespaces)"
                                    : "");
}

// Tries the namespaces in a throwaway child, so the judge itself is untouched.
bool probe_namespaces(const SandboxSupport& s, std::string* missing) {
  pid_t child = fork();
  if (child < 0) return *missing = fmt::format("fork: {}", std::strerror(errno)), false;
  if (child == 0) _exit(sandbox_child::enter_namespaces(s, false, getuid(), getgid()) ? 0 : (errno & 0xff));
  int status = 0;
  waitpid(child, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
  *missing = describe_unshare(s.user_namespace, WIFEXITED(status) ? WEXITSTATUS(status) : 0, "");
  return false;
}

// Whether RLIMIT_NPROC set inside a child's own user namespace counts only
// that namespace's processes (Linux 5.14 and later count it per user
// namespace): a child may then make two processes under a cap of three,
// but not a third. Where the count is the user's across the machine, the
// judge and this probe already use most of it.
bool probe_namespace_process_cap(const SandboxSupport& s, std::string* missing) {
  pid_t child = fork();
  if (child < 0) return *missing = fmt::format("fork: {}", std::strerror(errno)), false;
  if (child == 0) {
    if (!sandbox_child::enter_namespaces(s, false, getuid(), getgid())) _exit(2);
    rlimit cap{3, 3};
    if (setrlimit(RLIMIT_NPROC, &cap) != 0) _exit(2);
    pid_t held[2] = {-1, -1};
    for (pid_t& pid : held)
      if ((pid = fork()) == 0) {
        pause();
        _exit(0);
      }
    pid_t third = fork();
    int third_error = errno;
    if (third == 0) _exit(0);
    for (pid_t pid : held)
      if (pid > 0) kill(pid, SIGKILL);
    bool capped = held[0] > 0 && held[1] > 0 && third < 0 && third_error == EAGAIN;
    _exit(capped ? 0 : 3);
  }
  int status = 0;
  waitpid(child, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
  *missing =
      "RLIMIT_NPROC inside a user namespace counts the user's processes across the machine (Linux 5.14 and "
      "later count them per namespace)";
  return false;
}

// What a probe of the private root reports through its pipe.
struct RootProbe {
  int stage;  // 0: entered; 1: unshare; 2: fork; 3: a mount (failed_call); 4: mount proc
  int error;
  char failed_call[32];
};

// Tries a private root with the system mounts and a fresh /proc, in a
// throwaway child inside a throwaway PID namespace.
RootProbe probe_private_root(const SandboxSupport& s, const PreparedView& view) {
  RootProbe result{2, 0, {}};
  int report[2];
  if (pipe2(report, O_CLOEXEC) != 0) return result;
  pid_t child = fork();
  if (child == 0) {
    RootProbe probe{1, 0, {}};
    if (sandbox_child::enter_namespaces(s, true, getuid(), getgid())) {
      pid_t inner = fork();  // the first process of the new PID namespace, as a runner's is
      if (inner == 0) {
        const char* call = "";
        probe.stage = enter_private_root(view, &call) ? 0 : std::strcmp(call, "mount proc") == 0 ? 4 : 3;
        probe.error = errno;
        strncpy(probe.failed_call, call, sizeof probe.failed_call - 1);
        [[maybe_unused]] ssize_t n = write(report[1], &probe, sizeof probe);
        _exit(0);
      }
      if (inner > 0) {
        waitpid(inner, nullptr, 0);  // it reported
        _exit(0);
      }
      probe.stage = 2;
    }
    probe.error = errno;
    [[maybe_unused]] ssize_t n = write(report[1], &probe, sizeof probe);
    _exit(0);
  }
  close(report[1]);
  if (child > 0) {
    ssize_t n;
    do n = read(report[0], &result, sizeof result);
    while (n < 0 && errno == EINTR);
    waitpid(child, nullptr, 0);
  }
  close(report[0]);
  return result;
}

void probe_root(SandboxSupport* s) {
  std::string root_point = "/tmp/judge-probe-XXXXXX";
  if (!mkdtemp(root_point.data())) {
    s->private_root_missing = fmt::format("mkdtemp /tmp: {}", std::strerror(errno));
    return;
  }
  SandboxView view;
  view.mounts = system_mounts(SystemNeeds::kLibraries);
  view.proc = true;
  view.working_dir = "/";
  view.root_point = root_point;
  PreparedView prepared(view, /*private_root=*/true);
  RootProbe probe = probe_private_root(*s, prepared);
  std::error_code ignored;
  std::filesystem::remove_all(root_point, ignored);
  s->private_root = probe.stage == 0 || probe.stage == 4;
  s->fresh_proc = probe.stage == 0;
  probe.failed_call[sizeof probe.failed_call - 1] = '\0';
  if (probe.stage == 1 || probe.stage == 2)
    s->private_root_missing = describe_unshare(s->user_namespace, probe.error, " | CLONE_NEWNS");
  else if (probe.stage == 3)
    s->private_root_missing = fmt::format("{}: {}", probe.failed_call, std::strerror(probe.error));
  if (!s->fresh_proc)
    s->fresh_proc_missing = probe.stage == 4 ? fmt::format("mount proc: {}", std::strerror(probe.error))
                                             : "needs a private root: " + s->private_root_missing;
}

// Maps a throwaway child to subordinate ids and has it become them.
void probe_subordinate_ids(SandboxSupport* s) {
  if (!s->private_root) {
    s->subordinate_missing = "needs a private root: " + s->private_root_missing;
    return;
  }
  std::optional<SubordinateIds> ids = find_subordinate_ids(&s->subordinate_missing);
  if (!ids) return;
  RunnerIds lease = take_subordinate_ids(*ids);
  uid_t uid = lease.uid();
  gid_t gid = lease.gid();
  int request[2], done[2];
  if (pipe2(request, O_CLOEXEC) != 0) return void(s->subordinate_missing = "pipe2 failed");
  if (pipe2(done, O_CLOEXEC) != 0) {
    close(request[0]), close(request[1]);
    return void(s->subordinate_missing = "pipe2 failed");
  }
  pid_t child = fork();
  if (child == 0) {
    close(request[0]);
    close(done[1]);
    bool ok = sandbox_child::enter_namespaces(*s, true, getuid(), getgid(), request[1], done[0]) &&
              sandbox_child::drop_privileges(uid, gid) && getuid() == uid;
    _exit(ok ? 0 : 1);
  }
  close(request[1]);
  close(done[0]);
  std::string error = child < 0 ? "fork failed" : "the probe's child could not enter its namespaces or become them";
  char asked = 0;
  if (child > 0 && read(request[0], &asked, 1) == 1) {
    bool mapped = map_subordinate_ids(*ids, child, uid, gid, &error);
    [[maybe_unused]] ssize_t n = write(done[1], mapped ? "1" : "0", 1);
  }
  close(request[0]);
  close(done[1]);
  int status = 1;
  if (child > 0) waitpid(child, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    s->subordinate = std::move(ids);
    s->subordinate_missing.clear();
  } else {
    s->subordinate_missing = "mapping a runner to subordinate ids failed: " + error;
  }
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
    s.namespaces = probe_namespaces(s, &s.namespaces_missing);
    if (s.namespaces)
      probe_root(&s);
    else
      s.private_root_missing = s.fresh_proc_missing = "needs PID and network namespaces: " + s.namespaces_missing;
    s.landlock_abi = probe_landlock(&s.landlock_missing);
    if (s.user_namespace) probe_subordinate_ids(&s);
    if (s.user_namespace && s.namespaces)
      s.namespace_process_cap = probe_namespace_process_cap(s, &s.namespace_process_cap_missing);
    else if (s.user_namespace)
      s.namespace_process_cap_missing = "needs user namespaces: " + s.namespaces_missing;
    return s;
  }();
  return support;
}

std::string path_in_sandbox(const SandboxView& view, const std::string& inside) {
  return sandbox_support().private_root ? inside : host_path(view, inside);
}

namespace sandbox_child {

bool enter_namespaces(const SandboxSupport& support, bool mount_namespace, uid_t outer_uid, gid_t outer_gid,
                      int map_request_fd, int map_done_fd) {
  // IPC: System V objects and POSIX message queues of its own, gone with
  // it. Cgroup: its own cgroup is its root, so /proc/self/cgroup names
  // nothing of the judge's.
  int flags = CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWCGROUP | (mount_namespace ? CLONE_NEWNS : 0) |
              (support.user_namespace ? CLONE_NEWUSER : 0);
  if (unshare(flags) != 0) return false;
  if (support.user_namespace && map_request_fd >= 0) {
    char done = 0;
    ssize_t n;
    if (write(map_request_fd, "m", 1) != 1) return false;
    do n = read(map_done_fd, &done, 1);
    while (n < 0 && errno == EINTR);
    if (n != 1 || done != '1') return errno = EPERM, false;
  } else if (support.user_namespace) {
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
