// Memory cgroups for runners: finding the hierarchy, probing, one per run.
#include "sandbox/memory_cgroup.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <vector>

#include "sandbox/cleanup.hpp"
#include "util/files.hpp"

namespace judge {
namespace fs = std::filesystem;
namespace {

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) parts.push_back(part);
  if (!text.empty() && text.back() == separator) parts.emplace_back();
  return parts;
}

// mountinfo escapes space, tab, newline and backslash as \ooo.
std::string unescape_mount_field(const std::string& field) {
  std::string out;
  for (std::size_t i = 0; i < field.size(); ++i) {
    if (field[i] == '\\' && i + 3 < field.size()) {
      int value = 0;
      bool octal = true;
      for (std::size_t j = 1; j <= 3; ++j) {
        if (field[i + j] < '0' || field[i + j] > '7')
          octal = false;
        else
          value = value * 8 + (field[i + j] - '0');
      }
      if (octal) {
        out += static_cast<char>(value);
        i += 3;
        continue;
      }
    }
    out += field[i];
  }
  return out;
}

struct Mount {
  std::string root, point, type, super_options;
};

std::vector<Mount> parse_mountinfo(const std::string& mountinfo) {
  std::vector<Mount> mounts;
  std::istringstream in(mountinfo);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::vector<std::string> fields;
    std::string word;
    while (words >> word) fields.push_back(word);
    // ID PARENT MAJ:MIN ROOT POINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER
    auto dash = std::find(fields.begin(), fields.end(), "-");
    if (fields.size() < 6 || dash == fields.end() || fields.end() - dash < 4) continue;
    mounts.push_back({unescape_mount_field(fields[3]), unescape_mount_field(fields[4]), dash[1], dash[3]});
  }
  return mounts;
}

bool has_word(const std::string& list, const std::string& word, char separator) {
  for (const std::string& part : split(list, separator))
    if (part == word) return true;
  return false;
}

bool has_whitespace_word(const std::string& text, const std::string& word) {
  std::istringstream in(text);
  std::string each;
  while (in >> each)
    if (each == word) return true;
  return false;
}

// The directory of cgroup `path` in a hierarchy mounted at `mount`.
std::optional<std::string> directory_of(const Mount& mount, const std::string& path) {
  fs::path relative;
  if (mount.root == "/") {
    relative = fs::path(path).relative_path();
  } else {
    fs::path within = fs::path(path).lexically_relative(mount.root);
    if (within.empty() || *within.begin() == "..") return std::nullopt;  // outside what is mounted
    relative = within == "." ? fs::path() : within;
  }
  fs::path directory = relative.empty() ? fs::path(mount.point) : fs::path(mount.point) / relative;
  return directory.lexically_normal().string();
}

std::string read_text(const fs::path& path) { return read_file_or_empty(path.string()); }

bool write_text(const fs::path& path, const std::string& text, std::string* error) {
  int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0 || write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
    int failure = errno;  // callers look at it
    if (error) *error = fmt::format("{}: {}", path.string(), std::strerror(failure));
    if (fd >= 0) close(fd);
    errno = failure;
    return false;
  }
  close(fd);
  return true;
}

std::optional<std::uint64_t> read_number(const fs::path& path) {
  std::string text = read_text(path);
  std::uint64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc()) return std::nullopt;
  return value;
}

const char* limit_file(CgroupVersion version) {
  return version == CgroupVersion::kV2 ? "memory.max" : "memory.limit_in_bytes";
}

// Removes an emptied cgroup; its last processes may take a moment to go.
bool remove_cgroup(const std::string& directory) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    if (rmdir(directory.c_str()) == 0 || errno == ENOENT) return true;
    if (errno != EBUSY) return false;
    usleep(2000);
  }
  return false;
}

// Cgroups left by judges that died before removing theirs ("judge-PID-N").
void remove_stale_cgroups(const std::string& parent) {
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(parent, error)) {
    std::string name = entry.path().filename().string();
    if (name.rfind("judge-", 0) != 0) continue;
    long pid = std::atol(name.c_str() + 6);
    if (pid > 0 && kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) rmdir(entry.path().c_str());
  }
}

bool only_this_process_in(const fs::path& directory) {
  std::istringstream procs(read_text(directory / "cgroup.procs"));
  std::string pid;
  bool self = false;
  while (procs >> pid) {
    if (pid != std::to_string(getpid())) return false;
    self = true;
  }
  return self;
}

// Can the judge make limited children of `location`? Empty when it can.
std::string probe(const CgroupLocation& location) {
  const fs::path directory = location.directory;
  if (location.version == CgroupVersion::kV2) {
    if (!has_whitespace_word(read_text(directory / "cgroup.controllers"), "memory"))
      return fmt::format("the memory controller is not available in {}", location.directory);
    std::string enabled = read_text(directory / "cgroup.subtree_control");
    if (!has_whitespace_word(enabled, "memory")) {
      std::string error;
      bool busy = false;
      if (!write_text(directory / "cgroup.subtree_control", "+memory", &error)) {
        busy = errno == EBUSY;
        if (!busy) return fmt::format("the memory controller is not delegated to the judge's cgroup ({})", error);
      }
      // cgroup v2 enables controllers for children only in a cgroup with no
      // processes of its own. When the judge is alone in its cgroup (a
      // systemd scope made for it), it moves into a child and tries again.
      if (busy) {
        if (!only_this_process_in(directory))
          return fmt::format(
              "{} holds other processes besides the judge, so its memory controller cannot be "
              "enabled for children; run the judge in a cgroup of its own (see docs/sandbox.md)",
              location.directory);
        fs::path own = directory / fmt::format("judge-{}-judge", getpid());
        if (mkdir(own.c_str(), 0755) != 0 && errno != EEXIST)
          return fmt::format("mkdir {}: {}", own.string(), std::strerror(errno));
        if (!write_text(own / "cgroup.procs", std::to_string(getpid()), &error) ||
            !write_text(directory / "cgroup.subtree_control", "+memory", &error))
          return fmt::format("cannot enable the memory controller in {} ({})", location.directory, error);
      }
    }
  }
  std::string error;
  std::unique_ptr<MemoryCgroup> trial = MemoryCgroup::create(location, 64ull << 20, &error);
  return trial ? "" : error;
}
}  // namespace

CgroupCandidates find_memory_cgroups(const std::string& mountinfo, const std::string& proc_self_cgroup) {
  std::vector<Mount> mounts = parse_mountinfo(mountinfo);
  CgroupCandidates found;
  std::istringstream in(proc_self_cgroup);
  std::string line;
  while (std::getline(in, line)) {
    std::size_t first = line.find(':');
    std::size_t second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    std::string controllers = line.substr(first + 1, second - first - 1);
    std::string path = line.substr(second + 1);
    bool unified = line.compare(0, first, "0") == 0 && controllers.empty();
    bool memory_v1 = has_word(controllers, "memory", ',');
    if (!unified && !memory_v1) continue;
    for (const Mount& mount : mounts) {
      bool matches =
          unified ? mount.type == "cgroup2" : mount.type == "cgroup" && has_word(mount.super_options, "memory", ',');
      if (!matches) continue;
      std::optional<std::string> directory = directory_of(mount, path);
      if (!directory) continue;
      CgroupLocation location{unified ? CgroupVersion::kV2 : CgroupVersion::kV1, *directory};
      (unified ? found.v2 : found.v1) = location;
      break;
    }
  }
  return found;
}

const MemoryCgroupSupport& memory_cgroup_support() {
  static const MemoryCgroupSupport support = [] {
    MemoryCgroupSupport out;
    CgroupCandidates candidates =
        find_memory_cgroups(read_text("/proc/self/mountinfo"), read_text("/proc/self/cgroup"));
    std::vector<std::string> reasons;
    for (const std::optional<CgroupLocation>& candidate : {candidates.v2, candidates.v1}) {
      if (!candidate) continue;
      remove_stale_cgroups(candidate->directory);
      std::string why_not = probe(*candidate);
      if (why_not.empty()) {
        out.available = true;
        out.parent = *candidate;
        return out;
      }
      reasons.push_back(fmt::format("cgroup {}: {}", candidate->version == CgroupVersion::kV2 ? "v2" : "v1", why_not));
    }
    if (reasons.empty()) reasons.push_back("no cgroup hierarchy with a memory controller is mounted");
    out.missing = fmt::format("{}", fmt::join(reasons, "; "));
    return out;
  }();
  return support;
}

std::optional<CgroupLocation> memory_cgroup_parent() {
  const char* disabled = std::getenv(kNoMemoryCgroupVariable);
  if (disabled && *disabled) return std::nullopt;
  const MemoryCgroupSupport& support = memory_cgroup_support();
  if (!support.available) return std::nullopt;
  return support.parent;
}

std::optional<std::uint64_t> cgroup_key_value(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  std::string name;
  std::uint64_t value = 0;
  while (in >> name >> value)
    if (name == key) return value;
  return std::nullopt;
}

std::unique_ptr<MemoryCgroup> MemoryCgroup::create(const CgroupLocation& parent, std::uint64_t limit_bytes,
                                                   std::string* error) {
  static std::atomic<unsigned> counter{0};
  std::unique_ptr<MemoryCgroup> cgroup(new MemoryCgroup());
  cgroup->version_ = parent.version;
  std::string directory = (fs::path(parent.directory) / fmt::format("judge-{}-{}", getpid(), counter++)).string();
  if (mkdir(directory.c_str(), 0755) != 0) {
    *error = fmt::format("mkdir {}: {}", directory, std::strerror(errno));
    return nullptr;
  }
  cgroup->directory_ = directory;  // from here the destructor removes it
  register_cgroup(directory);
  const fs::path dir = directory;
  if (!fs::exists(dir / limit_file(parent.version))) {
    *error =
        fmt::format("{} has no {}: the memory controller is not enabled there", directory, limit_file(parent.version));
    return nullptr;
  }
  if (!write_text(dir / limit_file(parent.version), std::to_string(limit_bytes), error)) return nullptr;
  // Swap must not stretch the limit. Not every kernel accounts it; then
  // the limit holds for resident memory only.
  if (parent.version == CgroupVersion::kV2) {
    if (fs::exists(dir / "memory.swap.max")) write_text(dir / "memory.swap.max", "0", nullptr);
  } else if (fs::exists(dir / "memory.memsw.limit_in_bytes")) {
    write_text(dir / "memory.memsw.limit_in_bytes", std::to_string(limit_bytes), nullptr);
  }
  cgroup->procs_fd_ = open((dir / "cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
  if (cgroup->procs_fd_ < 0) {
    *error = fmt::format("open {}/cgroup.procs: {}", directory, std::strerror(errno));
    return nullptr;
  }
  return cgroup;
}

MemoryCgroup::~MemoryCgroup() {
  if (procs_fd_ >= 0) close(procs_fd_);
  if (directory_.empty()) return;
  unregister_cgroup(directory_);
  // Normally empty already (the runner's group and PID namespace are gone);
  // cgroup.kill (v2, Linux 5.14) makes sure.
  if (version_ == CgroupVersion::kV2 && fs::exists(fs::path(directory_) / "cgroup.kill"))
    write_text(fs::path(directory_) / "cgroup.kill", "1", nullptr);
  remove_cgroup(directory_);
}

bool MemoryCgroup::out_of_memory() const {
  const fs::path dir = directory_;
  if (version_ == CgroupVersion::kV2)
    return cgroup_key_value(read_text(dir / "memory.events"), "oom_kill").value_or(0) > 0;
  // Kernels before 4.13 do not count kills; then any failure to charge a page.
  std::optional<std::uint64_t> kills = cgroup_key_value(read_text(dir / "memory.oom_control"), "oom_kill");
  if (kills) return *kills > 0;
  return read_number(dir / "memory.failcnt").value_or(0) > 0;
}

std::uint64_t MemoryCgroup::peak_bytes() const {
  const fs::path dir = directory_;
  return read_number(dir / (version_ == CgroupVersion::kV2 ? "memory.peak" : "memory.max_usage_in_bytes")).value_or(0);
}

}  // namespace judge
