// The allow-lists of system directories for sandboxed children.
#include "sandbox/system_mounts.hpp"

#include <link.h>

#include <algorithm>
#include <filesystem>

#include "sandbox/hidden_paths.hpp"

namespace judge {
namespace fs = std::filesystem;
namespace {
int collect_library_directory(dl_phdr_info* info, size_t, void* data) {
  auto* directories = static_cast<std::vector<std::string>*>(data);
  const std::string name = info->dlpi_name ? info->dlpi_name : "";
  if (name.find('/') == std::string::npos) return 0;  // the program itself, the vDSO
  std::error_code error;
  fs::path resolved = fs::canonical(name, error);
  if (!error) directories->push_back(resolved.parent_path().string());
  return 0;
}
}  // namespace

const std::vector<std::string>& shared_library_directories() {
  static const std::vector<std::string> directories = [] {
    std::vector<std::string> found;
    dl_iterate_phdr(collect_library_directory, &found);
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());
    return found;
  }();
  return directories;
}

std::vector<SandboxMount> system_mounts(SystemNeeds needs, const std::vector<std::string>& extra_dirs) {
  // The loader's own names: on a merged-/usr system links (/lib64 ->
  // usr/lib64, whose ld-linux-x86-64.so.2 points into the library
  // directory), recreated as links inside the view.
  std::vector<std::string> paths = {"/lib", "/lib64", "/usr/lib64", "/etc/ld.so.cache"};
  for (const std::string& directory : shared_library_directories()) paths.push_back(directory);
  if (needs == SystemNeeds::kToolchain)
    for (const char* path :
         {"/bin", "/usr/bin", "/usr/include", "/usr/lib/gcc", "/usr/libexec/gcc", "/usr/lib/bfd-plugins"})
      paths.push_back(path);
  paths.insert(paths.end(), extra_dirs.begin(), extra_dirs.end());
  std::vector<SandboxMount> mounts;
  for (const std::string& path : paths) {
    // One mount per tree: a directory beneath another listed one is in it already.
    bool covered = std::any_of(paths.begin(), paths.end(),
                               [&](const std::string& other) { return other != path && path_is_within(path, other); });
    bool listed = std::any_of(mounts.begin(), mounts.end(), [&](const SandboxMount& m) { return m.host == path; });
    if (!covered && !listed) mounts.push_back({path, path, /*writable=*/false, /*optional=*/true});
  }
  return mounts;
}

}  // namespace judge
