// The registry of paths hidden from sandboxed children.
#include "sandbox/hidden_paths.hpp"

#include <algorithm>
#include <filesystem>
#include <mutex>

namespace judge {
namespace fs = std::filesystem;
namespace {
std::mutex hidden_mutex;
std::vector<std::string>& hidden_registry() {
  static std::vector<std::string> paths;
  return paths;
}
}  // namespace

void hide_from_sandboxes(const std::string& path) {
  if (path.empty()) return;
  std::error_code error;
  fs::path resolved = fs::weakly_canonical(fs::absolute(path, error), error);
  if (error) resolved = fs::absolute(path).lexically_normal();
  std::string text = resolved.string();
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  std::lock_guard<std::mutex> lock(hidden_mutex);
  std::vector<std::string>& paths = hidden_registry();
  if (std::find(paths.begin(), paths.end(), text) == paths.end()) paths.push_back(text);
}

std::vector<std::string> hidden_paths() {
  std::lock_guard<std::mutex> lock(hidden_mutex);
  std::vector<std::string> outermost;
  for (const std::string& path : hidden_registry()) {
    bool inside_another =
        std::any_of(hidden_registry().begin(), hidden_registry().end(),
                    [&](const std::string& other) { return other != path && path_is_within(path, other); });
    if (!inside_another) outermost.push_back(path);
  }
  return outermost;
}

bool path_is_within(const std::string& path, const std::string& directory) {
  if (directory == "/") return !path.empty() && path[0] == '/';
  return path.compare(0, directory.size(), directory) == 0 &&
         (path.size() == directory.size() || path[directory.size()] == '/');
}

}  // namespace judge
