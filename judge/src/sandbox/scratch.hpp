// The scratch directory of one sandboxed child:
// PARENT/PREFIX<pid>-XXXXXX/, holding work/ (the child's writable
// directory) and root/ (an empty directory its private root is mounted on,
// in its own mount namespace). Removed with everything in it on
// destruction, on SIGINT or SIGTERM (cleanup.hpp), or, when the judge was
// killed, by the next judge that makes one in the same parent.
#pragma once

#include <memory>
#include <string>

namespace judge {

class SandboxScratch {
 public:
  // Null with *error set when it cannot be made.
  static std::unique_ptr<SandboxScratch> create(const std::string& parent, const std::string& prefix,
                                                std::string* error);
  ~SandboxScratch();
  SandboxScratch(const SandboxScratch&) = delete;
  SandboxScratch& operator=(const SandboxScratch&) = delete;

  const std::string& dir() const { return dir_; }
  std::string work() const { return dir_ + "/work"; }
  std::string root() const { return dir_ + "/root"; }

 private:
  explicit SandboxScratch(std::string dir) : dir_(std::move(dir)) {}
  std::string dir_;
};

// Removes the directories in `parent` named PREFIX<pid>-... whose judge
// (process <pid>) is gone: what killed judges left behind.
void remove_stale_scratch(const std::string& parent, const std::string& prefix);

}  // namespace judge
