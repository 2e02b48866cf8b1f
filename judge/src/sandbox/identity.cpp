// Runner user ids, subordinate ids, and dropping to them.
#include "sandbox/identity.hpp"

#include <grp.h>
#include <pwd.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <sstream>
#include <vector>

#include "util/files.hpp"

extern char** environ;

namespace judge {
namespace {
std::atomic<std::uint32_t> runner_counter{0};

// The 28 bits that tell this process's runners from each other and from
// other judges': 22 of the process id, 6 of a counter.
std::uint32_t runner_serial() {
  return ((static_cast<std::uint32_t>(getpid()) & 0x3fffffu) << 6) | (runner_counter++ & 63u);
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

uid_t next_runner_uid() { return static_cast<uid_t>(0x50000000u + runner_serial()); }

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

std::pair<uid_t, gid_t> next_subordinate_ids(const SubordinateIds& ids) {
  std::uint32_t span = std::min(ids.uids.count, ids.gids.count);
  std::uint32_t offset = runner_serial() % span;
  return {static_cast<uid_t>(ids.uids.first + offset), static_cast<gid_t>(ids.gids.first + offset)};
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
