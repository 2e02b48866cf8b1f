// Scratch directories for sandboxed children.
#include "sandbox/scratch.hpp"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "sandbox/cleanup.hpp"

namespace judge {
namespace fs = std::filesystem;

std::unique_ptr<SandboxScratch> SandboxScratch::create(const std::string& parent, const std::string& prefix,
                                                       std::string* error) {
  std::string pattern = fmt::format("{}/{}{}-XXXXXX", parent, prefix, getpid());
  if (!mkdtemp(pattern.data())) {
    *error = fmt::format("mkdtemp {}: {}", pattern, std::strerror(errno));
    return nullptr;
  }
  std::unique_ptr<SandboxScratch> scratch(new SandboxScratch(pattern.c_str()));
  register_scratch_dir(scratch->dir_);
  // A child running as a user of its own passes through (to work/, and up
  // from it), but cannot list or change this directory.
  if (chmod(scratch->dir_.c_str(), 0711) != 0 || mkdir(scratch->work().c_str(), 0755) != 0 ||
      mkdir(scratch->root().c_str(), 0755) != 0) {
    *error = fmt::format("cannot prepare {}: {}", scratch->dir_, std::strerror(errno));
    return nullptr;
  }
  return scratch;
}

SandboxScratch::~SandboxScratch() {
  std::error_code ignored;
  fs::remove_all(dir_, ignored);
  unregister_scratch_dir(dir_);
}

void remove_stale_scratch(const std::string& parent, const std::string& prefix) {
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(parent, error)) {
    std::string name = entry.path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    long pid = std::atol(name.c_str() + prefix.size());
    if (pid > 0 && pid != getpid() && kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
      fs::remove_all(entry.path(), error);
  }
}

}  // namespace judge
