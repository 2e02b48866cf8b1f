// Paths: compile-time defaults from CMake, run-time overrides from the environment.
#include "util/paths.hpp"

#include <cstdlib>
#include <filesystem>

namespace judge {
namespace {
std::string env_or(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value && *value ? std::string(value) : fallback;
}
}  // namespace

Paths Paths::under_root(const std::string& root_dir) {
  namespace fs = std::filesystem;
  Paths paths;
  paths.root = fs::absolute(root_dir).lexically_normal().string();
  fs::path root(paths.root);
  paths.problems_dir = (root / "problems").string();
  paths.solutions_dir = (root / "solutions").string();
  paths.harness_include = (root / "harness" / "include").string();
  paths.adapters_dir = (root / "harness" / "problems").string();
  paths.harness_library = JUDGE_HARNESS_LIBRARY;
  paths.eigen_include = JUDGE_EIGEN_INCLUDE;
  paths.cache_dir = env_or("JUDGE_CACHE_DIR", (fs::path(JUDGE_BUILD_DIR) / "runners").string());
  paths.workspace_dir = env_or("JUDGE_WORKSPACE", (root / "workspace").string());
  return paths;
}

Paths Paths::discover() { return under_root(env_or("JUDGE_ROOT", JUDGE_SOURCE_DIR)); }

}  // namespace judge
