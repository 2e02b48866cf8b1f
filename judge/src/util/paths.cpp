// Paths: the installation's layout (found from the judge's binary, see
// util/installation.hpp), overridden by the environment.
#include "util/paths.hpp"

#include <cstdlib>
#include <filesystem>

#include "util/errors.hpp"
#include "util/installation.hpp"

namespace judge {
namespace {
std::string env_or(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value && *value ? std::string(value) : fallback;
}
}  // namespace

Paths Paths::under_root(const std::string& root_dir) {
  namespace fs = std::filesystem;
  const Installation& installation = this_installation();
  Paths paths;
  paths.root = fs::absolute(root_dir).lexically_normal().string();
  fs::path root(paths.root);
  paths.problems_dir = (root / "problems").string();
  paths.solutions_dir = (root / "solutions").string();
  paths.harness_include = (root / "harness" / "include").string();
  paths.adapters_dir = (root / "harness" / "problems").string();
  paths.harness_library = installation.harness_library;
  paths.eigen_include = JUDGE_EIGEN_INCLUDE;  // a system package's headers, where Debian puts them
  paths.cache_dir = env_or("JUDGE_CACHE_DIR", installation.cache_dir);
  paths.default_cache_dir = env_or("JUDGE_DEFAULT_CACHE_DIR", installation.cache_dir);
  // An installed judge's root is shared and read-only: learners work in
  // their own directory unless they chose a root of their own.
  std::string workspace = installation.workspace_dir.empty() || paths.root != installation.root
                              ? (root / "workspace").string()
                              : installation.workspace_dir;
  paths.workspace_dir = env_or("JUDGE_WORKSPACE", workspace);
  return paths;
}

Paths Paths::discover() {
  std::string root = env_or("JUDGE_ROOT", this_installation().root);
  if (root.empty())
    throw JudgeFault{
        "cannot find the problems: no problems/ and harness/ beside the judge's binary or above it; set JUDGE_ROOT to "
        "a folder that holds them"};
  return under_root(root);
}

}  // namespace judge
