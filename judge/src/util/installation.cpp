// Finding the judge's files from its own binary (util/installation.hpp).
#include "util/installation.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace judge {
namespace fs = std::filesystem;
namespace {
std::string environment_or(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value && *value ? std::string(value) : fallback;
}

// $XDG_<KIND>_HOME, or ~/FALLBACK as the XDG base directory rules say.
fs::path user_directory(const char* variable, const char* fallback) {
  std::string set = environment_or(variable, "");
  if (!set.empty() && fs::path(set).is_absolute()) return set;
  return fs::path(environment_or("HOME", "/tmp")) / fallback;
}

bool holds_problems(const fs::path& dir) {
  std::error_code error;
  return fs::is_directory(dir / "problems", error) && fs::is_directory(dir / "harness" / "include", error);
}

// The source directory a CMake build tree was configured from: the one
// place a build outside its checkout records it.
fs::path configured_source(const fs::path& build_dir) {
  std::ifstream cache(build_dir / "CMakeCache.txt");
  const std::string prefix = "CMAKE_HOME_DIRECTORY:INTERNAL=";
  for (std::string line; std::getline(cache, line);)
    if (line.rfind(prefix, 0) == 0) return line.substr(prefix.size());
  return {};
}
}  // namespace

Installation installation_of(const std::string& executable) {
  Installation found;
  const fs::path dir = fs::path(executable).parent_path();
  const fs::path above = dir.parent_path();
  if (dir.filename() == "bin" && holds_problems(above / "share" / "judge")) {
    found.installed = true;
    found.root = (above / "share" / "judge").string();
    found.harness_library = (above / "lib" / "judge" / "libjudge_harness.a").string();
    found.cache_dir = (user_directory("XDG_CACHE_HOME", ".cache") / "judge").string();
    found.workspace_dir = (user_directory("XDG_DATA_HOME", ".local/share") / "judge" / "workspace").string();
    return found;
  }
  // A build tree: the binary one level below the build directory.
  found.harness_library = (above / "harness" / "libjudge_harness.a").string();
  found.cache_dir = (above / "runners").string();
  for (fs::path candidate = dir; !candidate.empty(); candidate = candidate.parent_path()) {
    if (holds_problems(candidate)) {
      found.root = candidate.string();
      break;
    }
    if (candidate == candidate.root_path()) break;
  }
  if (found.root.empty()) {
    fs::path source = configured_source(above);
    if (!source.empty() && holds_problems(source)) found.root = source.string();
  }
  return found;
}

const Installation& this_installation() {
  static const Installation installation = [] {
    std::error_code error;
    fs::path self = fs::read_symlink("/proc/self/exe", error);
    return installation_of(error ? std::string() : self.string());
  }();
  return installation;
}

}  // namespace judge
