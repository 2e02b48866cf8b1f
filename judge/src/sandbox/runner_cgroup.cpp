// Cgroups for runners and compiles: finding the hierarchies, probing, one set per child.
#include "sandbox/runner_cgroup.hpp"

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
#include "util/environment.hpp"
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

// Enables `controller` for the children of the v2 cgroup `directory`.
// cgroup v2 enables controllers for children only in a cgroup with no
// processes of its own: when the judge is alone in its cgroup (a systemd
// scope made for it), it moves into a child and tries again. Empty when
// enabled, else why not.
std::string enable_v2_controller(const fs::path& directory, const std::string& controller) {
  if (!has_whitespace_word(read_text(directory / "cgroup.controllers"), controller))
    return fmt::format("the {} controller is not available in {}", controller, directory.string());
  if (has_whitespace_word(read_text(directory / "cgroup.subtree_control"), controller)) return "";
  std::string error;
  if (write_text(directory / "cgroup.subtree_control", "+" + controller, &error)) return "";
  if (errno != EBUSY)
    return fmt::format("the {} controller is not delegated to the judge's cgroup ({})", controller, error);
  if (!only_this_process_in(directory))
    return fmt::format(
        "{} holds other processes besides the judge, so its {} controller cannot be enabled for children; run the "
        "judge in a cgroup of its own (see docs/sandbox.md)",
        directory.string(), controller);
  fs::path own = directory / fmt::format("judge-{}-judge", getpid());
  if (mkdir(own.c_str(), 0755) != 0 && errno != EEXIST)
    return fmt::format("mkdir {}: {}", own.string(), std::strerror(errno));
  if (!write_text(own / "cgroup.procs", std::to_string(getpid()), &error) ||
      !write_text(directory / "cgroup.subtree_control", "+" + controller, &error))
    return fmt::format("cannot enable the {} controller in {} ({})", controller, directory.string(), error);
  return "";
}

// Can the judge make children of the v1 hierarchy at `location`? Empty when
// it can.
std::string probe_v1(const CgroupLocation& location) {
  remove_stale_cgroups(location.directory);
  fs::path trial = fs::path(location.directory) / fmt::format("judge-{}-probe", getpid());
  if (mkdir(trial.c_str(), 0755) != 0) return fmt::format("mkdir {}: {}", trial.string(), std::strerror(errno));
  rmdir(trial.c_str());
  return "";
}

const char* version_name(CgroupVersion version) { return version == CgroupVersion::kV2 ? "v2" : "v1"; }

// Fills in pids and cpu once memory works under `support->parent`.
void probe_extras(const CgroupCandidates& candidates, CgroupSupport* support) {
  const fs::path parent = support->parent.directory;
  if (support->parent.version == CgroupVersion::kV2) {
    support->pids_missing = enable_v2_controller(parent, "pids");
    support->pids = support->pids_missing.empty();
    // cpu.stat's usage_usec is kept by every v2 cgroup, with or without the
    // cpu controller.
    support->cpu = fs::exists(parent / "cpu.stat");
    if (!support->cpu) support->cpu_missing = fmt::format("{} has no cpu.stat", parent.string());
    return;
  }
  if (!candidates.v1_pids) {
    support->pids_missing = "no cgroup v1 pids hierarchy is mounted";
  } else if ((support->pids_missing = probe_v1(*candidates.v1_pids)).empty()) {
    support->pids = true;
    support->v1_pids_parent = candidates.v1_pids;
  }
  if (!candidates.v1_cpuacct) {
    support->cpu_missing = "no cgroup v1 cpuacct hierarchy is mounted";
  } else if ((support->cpu_missing = probe_v1(*candidates.v1_cpuacct)).empty()) {
    support->cpu = true;
    support->v1_cpuacct_parent = candidates.v1_cpuacct;
  }
}

// Can the judge make memory-limited children of `location`? Empty when it can.
std::string probe_memory(const CgroupLocation& location) {
  if (location.version == CgroupVersion::kV2) {
    std::string why_not = enable_v2_controller(location.directory, "memory");
    if (!why_not.empty()) return why_not;
  }
  CgroupSupport trial_support;
  trial_support.available = true;
  trial_support.parent = location;
  std::string error;
  std::unique_ptr<RunnerCgroup> trial = RunnerCgroup::create(trial_support, 64ull << 20, 64, &error);
  return trial ? "" : error;
}

// The v1 hierarchy whose super options name `controller`, or the unified one.
struct Wanted {
  std::optional<CgroupLocation>* slot;
  const char* controller;  // nullptr: the unified hierarchy
};
}  // namespace

CgroupCandidates find_cgroups(const std::string& mountinfo, const std::string& proc_self_cgroup) {
  std::vector<Mount> mounts = parse_mountinfo(mountinfo);
  CgroupCandidates found;
  const Wanted wanted[] = {
      {&found.v2, nullptr}, {&found.v1, "memory"}, {&found.v1_pids, "pids"}, {&found.v1_cpuacct, "cpuacct"}};
  std::istringstream in(proc_self_cgroup);
  std::string line;
  while (std::getline(in, line)) {
    std::size_t first = line.find(':');
    std::size_t second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    std::string controllers = line.substr(first + 1, second - first - 1);
    std::string path = line.substr(second + 1);
    bool unified = line.compare(0, first, "0") == 0 && controllers.empty();
    for (const Wanted& want : wanted) {
      if (*want.slot) continue;
      if (want.controller ? !has_word(controllers, want.controller, ',') : !unified) continue;
      for (const Mount& mount : mounts) {
        bool matches = want.controller ? mount.type == "cgroup" && has_word(mount.super_options, want.controller, ',')
                                       : mount.type == "cgroup2";
        if (!matches) continue;
        std::optional<std::string> directory = directory_of(mount, path);
        if (!directory) continue;
        *want.slot = CgroupLocation{want.controller ? CgroupVersion::kV1 : CgroupVersion::kV2, *directory};
        break;
      }
    }
  }
  return found;
}

const CgroupSupport& cgroup_support() {
  static const CgroupSupport support = [] {
    CgroupSupport out;
    CgroupCandidates candidates = find_cgroups(read_text("/proc/self/mountinfo"), read_text("/proc/self/cgroup"));
    std::vector<std::string> reasons;
    for (const std::optional<CgroupLocation>& candidate : {candidates.v2, candidates.v1}) {
      if (!candidate) continue;
      remove_stale_cgroups(candidate->directory);
      std::string why_not = probe_memory(*candidate);
      if (why_not.empty()) {
        out.available = true;
        out.parent = *candidate;
        probe_extras(candidates, &out);
        return out;
      }
      reasons.push_back(fmt::format("cgroup {}: {}", version_name(candidate->version), why_not));
    }
    if (reasons.empty()) reasons.push_back("no cgroup hierarchy with a memory controller is mounted");
    out.missing = fmt::format("{}", fmt::join(reasons, "; "));
    out.pids_missing = out.cpu_missing = "needs a memory cgroup: " + out.missing;
    return out;
  }();
  return support;
}

bool cgroups_in_use() { return !environment_flag(kNoMemoryCgroupVariable) && cgroup_support().available; }

std::optional<std::uint64_t> cgroup_key_value(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  std::string name;
  std::uint64_t value = 0;
  while (in >> name >> value)
    if (name == key) return value;
  return std::nullopt;
}

bool RunnerCgroup::add(const CgroupLocation& parent, std::optional<Member>* member, std::string* error) {
  static std::atomic<unsigned> counter{0};
  std::string directory = (fs::path(parent.directory) / fmt::format("judge-{}-{}", getpid(), counter++)).string();
  if (mkdir(directory.c_str(), 0755) != 0) {
    *error = fmt::format("mkdir {}: {}", directory, std::strerror(errno));
    return false;
  }
  register_cgroup(directory);  // from here the destructor removes it
  *member = Member{directory, -1};
  (*member)->procs_fd = open((fs::path(directory) / "cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
  if ((*member)->procs_fd < 0) {
    *error = fmt::format("open {}/cgroup.procs: {}", directory, std::strerror(errno));
    return false;
  }
  return true;
}

std::unique_ptr<RunnerCgroup> RunnerCgroup::create(const CgroupSupport& support, std::uint64_t memory_bytes,
                                                   int max_processes, std::string* error) {
  std::unique_ptr<RunnerCgroup> cgroup(new RunnerCgroup());
  const CgroupVersion version = cgroup->version_ = support.parent.version;
  if (!cgroup->add(support.parent, &cgroup->memory_, error)) return nullptr;
  const fs::path dir = cgroup->memory_->directory;
  if (!fs::exists(dir / limit_file(version))) {
    *error = fmt::format("{} has no {}: the memory controller is not enabled there", dir.string(), limit_file(version));
    return nullptr;
  }
  if (!write_text(dir / limit_file(version), std::to_string(memory_bytes), error)) return nullptr;
  // Swap must not stretch the limit. Not every kernel accounts it; then
  // the limit holds for resident memory only.
  if (version == CgroupVersion::kV2) {
    if (fs::exists(dir / "memory.swap.max")) write_text(dir / "memory.swap.max", "0", nullptr);
  } else if (fs::exists(dir / "memory.memsw.limit_in_bytes")) {
    write_text(dir / "memory.memsw.limit_in_bytes", std::to_string(memory_bytes), nullptr);
  }
  if (support.pids) {
    fs::path pids_dir = dir;
    if (support.v1_pids_parent) {
      if (!cgroup->add(*support.v1_pids_parent, &cgroup->pids_, error)) return nullptr;
      pids_dir = cgroup->pids_->directory;
    }
    if (!write_text(pids_dir / "pids.max", std::to_string(max_processes), error)) return nullptr;
    cgroup->limits_processes_ = true;
  }
  if (support.cpu && support.v1_cpuacct_parent && !cgroup->add(*support.v1_cpuacct_parent, &cgroup->cpuacct_, error))
    return nullptr;
  return cgroup;
}

RunnerCgroup::~RunnerCgroup() {
  for (std::optional<Member>* member : {&memory_, &pids_, &cpuacct_}) {
    if (!*member) continue;
    const std::string& directory = (*member)->directory;
    if ((*member)->procs_fd >= 0) close((*member)->procs_fd);
    unregister_cgroup(directory);
    // Normally empty already (the runner's group and PID namespace are
    // gone); cgroup.kill (v2, Linux 5.14) makes sure.
    if (version_ == CgroupVersion::kV2 && fs::exists(fs::path(directory) / "cgroup.kill"))
      write_text(fs::path(directory) / "cgroup.kill", "1", nullptr);
    remove_cgroup(directory);
  }
}

std::vector<int> RunnerCgroup::procs_fds() const {
  std::vector<int> fds;
  for (const std::optional<Member>* member : {&memory_, &pids_, &cpuacct_})
    if (*member && (*member)->procs_fd >= 0) fds.push_back((*member)->procs_fd);
  return fds;
}

bool RunnerCgroup::out_of_memory() const {
  const fs::path dir = memory_->directory;
  if (version_ == CgroupVersion::kV2)
    return cgroup_key_value(read_text(dir / "memory.events"), "oom_kill").value_or(0) > 0;
  // Kernels before 4.13 do not count kills; then any failure to charge a page.
  std::optional<std::uint64_t> kills = cgroup_key_value(read_text(dir / "memory.oom_control"), "oom_kill");
  if (kills) return *kills > 0;
  return read_number(dir / "memory.failcnt").value_or(0) > 0;
}

std::uint64_t RunnerCgroup::peak_bytes() const {
  const fs::path dir = memory_->directory;
  return read_number(dir / (version_ == CgroupVersion::kV2 ? "memory.peak" : "memory.max_usage_in_bytes")).value_or(0);
}

std::optional<double> RunnerCgroup::cpu_ms() const {
  if (version_ == CgroupVersion::kV2) {
    std::optional<std::uint64_t> us =
        cgroup_key_value(read_text(fs::path(memory_->directory) / "cpu.stat"), "usage_usec");
    if (!us) return std::nullopt;
    return static_cast<double>(*us) / 1e3;
  }
  if (!cpuacct_) return std::nullopt;
  std::optional<std::uint64_t> ns = read_number(fs::path(cpuacct_->directory) / "cpuacct.usage");
  if (!ns) return std::nullopt;
  return static_cast<double>(*ns) / 1e6;
}

}  // namespace judge
