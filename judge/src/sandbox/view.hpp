// What a sandboxed child sees of the file system.
//
// With a private root (sandbox_support().private_root: a mount namespace),
// the child's "/" is a small read-only tmpfs holding only the view: its
// mounts, bind-mounted from the host, the system's symbolic links
// (/lib -> usr/lib on a merged-/usr system), and, when asked for, a /proc
// of the child's own PID namespace. Every other path does not exist for
// it, so no probe (an #include, __has_include, open) can tell a hidden file
// from a missing one. Without a private root the host's paths stay, and
// Landlock alone decides what the child may open; the view's `inside`
// paths are then the host paths.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <utility>
#include <vector>

namespace judge {

struct SandboxMount {
  std::string host;    // an absolute host path: a directory or a file
  std::string inside;  // where the child sees it (with a private root)
  bool writable = false;
  bool optional = false;  // skipped where the host lacks it
  // A scratch directory of the child's own: handed to the child's user
  // (when the judge is root and the child runs as a user of its own).
  // Never set for shared paths such as /dev/null.
  bool owned_by_child = false;
};

struct SandboxView {
  std::vector<SandboxMount> mounts;
  bool proc = false;  // a /proc of the child's own processes
  // With a private root: a writable, empty tmpfs at this inside path, of at
  // most `tmpfs_bytes` (its pages count in the child's memory cgroup), gone
  // with the child's mount namespace. Empty: none.
  std::string tmpfs;
  std::uint64_t tmpfs_bytes = 64ull << 20;
  std::string working_dir;  // an inside path, at or beneath a mount
  // An empty directory on the host, for the private root to be mounted on
  // (inside the child's mount namespace only).
  std::string root_point;
};

// The host path that the path `inside` of `view` maps to: through the
// mount holding it (the longest), or `inside` itself when none does.
std::string host_path(const SandboxView& view, const std::string& inside);

// Everything the child needs to enter a view, prepared in the parent so
// that between fork and exec nothing is allocated. The judge's own paths
// (hidden_paths.hpp) are hidden wherever a read-only mount holds them: with
// a private root an empty read-only file system covers each; with Landlock
// alone the mount's directory is allowed entry by entry around them.
class PreparedView {
 public:
  // `private_root`: mount the view; otherwise use host paths (Landlock only).
  PreparedView(const SandboxView& view, bool private_root);
  PreparedView(const PreparedView&) = delete;
  PreparedView& operator=(const PreparedView&) = delete;

  bool private_root() const { return private_root_; }
  // Landlock's paths, as the child resolves them: null-terminated arrays.
  const char* const* readable() const { return readable_.data(); }
  const char* const* writable() const { return writable_.data(); }
  // The working directory as the child names it.
  const char* working_dir() const { return working_dir_.c_str(); }

 private:
  friend bool enter_private_root(const PreparedView& view, const char** failed_call);
  struct Step {
    enum Kind { kDirectory, kFile, kSymlink, kBind, kReadOnly, kProc, kTmpfs, kHideDirectory, kHideFile } kind;
    const char* path;    // beneath the root point
    const char* source;  // kBind: host path; kSymlink: the link's target; kTmpfs: mount options
    bool optional;
  };
  void add_step(Step::Kind kind, std::string path, std::string source = "", bool optional = false);
  void add_parents(const std::string& inside);
  void add_mount(const SandboxMount& mount, const std::vector<std::string>& hidden);

  bool private_root_;
  std::deque<std::string> strings_;  // owns every path the steps point to (a deque: they never move)
  std::vector<Step> steps_;
  std::vector<const char*> readable_, writable_;
  std::string root_point_, working_dir_;
  std::vector<std::string> made_dirs_;
  std::vector<std::pair<Step::Kind, std::string>> hides_;  // inside paths to cover, after every mount
};

// Between fork and exec, in a fresh mount namespace and PID namespace:
// builds the view under the root point, pivots into it, drops the old root
// and changes to the working directory. False with *failed_call and errno
// set on failure.
bool enter_private_root(const PreparedView& view, const char** failed_call);

}  // namespace judge
