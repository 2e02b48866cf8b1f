// Planning a view in the parent, and entering it in the child.
#include "sandbox/view.hpp"

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <set>

#include "sandbox/hidden_paths.hpp"

namespace judge {
namespace fs = std::filesystem;

std::string host_path(const SandboxView& view, const std::string& inside) {
  const SandboxMount* holder = nullptr;
  for (const SandboxMount& mount : view.mounts) {
    bool beneath = inside.compare(0, mount.inside.size(), mount.inside) == 0 &&
                   (inside.size() == mount.inside.size() || inside[mount.inside.size()] == '/');
    if (beneath && (!holder || mount.inside.size() > holder->inside.size())) holder = &mount;
  }
  return holder ? holder->host + inside.substr(holder->inside.size()) : inside;
}

namespace {
// Whether any of `hidden` is `directory` or lies beneath it.
bool holds_hidden(const std::string& directory, const std::vector<std::string>& hidden) {
  return std::any_of(hidden.begin(), hidden.end(),
                     [&](const std::string& path) { return path_is_within(path, directory); });
}

// For Landlock alone, which cannot take a path back out of an allowed
// tree: `directory` itself when it holds none of `hidden`, else its
// entries, each treated the same way, leaving out the hidden ones. Links
// are left out too: Landlock checks the file a link leads to, which is
// allowed only through a rule of its own.
void allow_around(const fs::path& directory, const std::vector<std::string>& hidden, std::vector<std::string>* out) {
  if (!holds_hidden(directory.string(), hidden)) return out->push_back(directory.string());
  if (std::find(hidden.begin(), hidden.end(), directory.string()) != hidden.end()) return;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(directory, error)) {
    if (entry.is_symlink(error)) continue;
    if (entry.is_directory(error))
      allow_around(entry.path(), hidden, out);
    else if (!holds_hidden(entry.path().string(), hidden))
      out->push_back(entry.path().string());
  }
}
}  // namespace

PreparedView::PreparedView(const SandboxView& view, bool private_root) : private_root_(private_root) {
  root_point_ = view.root_point;
  working_dir_ = view.working_dir;
  const std::vector<std::string> hidden = hidden_paths();
  for (const SandboxMount& mount : view.mounts) add_mount(mount, hidden);
  if (private_root && !view.tmpfs.empty()) {
    add_parents(view.tmpfs);
    add_step(Step::kDirectory, view.tmpfs);
    add_step(Step::kTmpfs, view.tmpfs, "size=" + std::to_string(view.tmpfs_bytes) + ",mode=1777");
    writable_.push_back(strings_.emplace_back(view.tmpfs).c_str());
  }
  if (private_root && view.proc) {
    add_parents("/proc");
    add_step(Step::kDirectory, "/proc");
    add_step(Step::kProc, "/proc");
    readable_.push_back(strings_.emplace_back("/proc").c_str());
  }
  // Last, so that no later mount covers them.
  for (const auto& [kind, inside] : hides_) add_step(kind, inside);
  if (!private_root) working_dir_ = host_path(view, view.working_dir);
  readable_.push_back(nullptr);
  writable_.push_back(nullptr);
}

void PreparedView::add_mount(const SandboxMount& mount, const std::vector<std::string>& hidden) {
  std::error_code error;
  fs::file_status status = fs::symlink_status(mount.host, error);
  bool exists = !error && fs::exists(status);
  if (!exists && mount.optional) return;
  // The host tree the mount shows: a link's target (a bind follows it).
  fs::path shown = fs::weakly_canonical(mount.host, error);
  if (!private_root_) {
    // The host's links stay, and Landlock checks what they lead to: a link
    // to a directory (/lib -> usr/lib) needs no rule of its own, and a rule
    // for its whole target would be too wide; a link to a file
    // (/etc/localtime) allows just that file.
    if (fs::is_symlink(status) && fs::is_directory(shown, error)) return;
    std::vector<std::string> allowed;
    if (mount.writable)
      allowed.push_back(mount.host);
    else
      allow_around(shown, hidden, &allowed);
    for (const std::string& path : allowed)
      (mount.writable ? writable_ : readable_).push_back(strings_.emplace_back(path).c_str());
    return;
  }
  (mount.writable ? writable_ : readable_).push_back(strings_.emplace_back(mount.inside).c_str());
  add_parents(mount.inside);
  if (fs::is_symlink(status)) {
    // /lib -> usr/lib: the same link inside, resolved within the view.
    add_step(Step::kSymlink, mount.inside, fs::read_symlink(mount.host, error).string());
    return;
  }
  bool directory = fs::is_directory(mount.host, error);
  add_step(directory ? Step::kDirectory : Step::kFile, mount.inside);
  add_step(Step::kBind, mount.inside, mount.host, mount.optional);
  if (mount.writable) return;
  add_step(Step::kReadOnly, mount.inside, "", mount.optional);
  for (const std::string& path : hidden) {
    if (!path_is_within(path, shown.string()) || !fs::exists(path, error)) continue;
    std::string inside = mount.inside + path.substr(shown.string().size());
    hides_.emplace_back(fs::is_directory(path, error) ? Step::kHideDirectory : Step::kHideFile, inside);
  }
}

void PreparedView::add_parents(const std::string& inside) {
  fs::path parent = fs::path(inside).parent_path();
  std::vector<std::string> missing;
  for (; parent != "/" && !parent.empty(); parent = parent.parent_path()) missing.push_back(parent.string());
  std::reverse(missing.begin(), missing.end());
  for (const std::string& dir : missing) {
    if (std::find(made_dirs_.begin(), made_dirs_.end(), dir) != made_dirs_.end()) continue;
    made_dirs_.push_back(dir);
    add_step(Step::kDirectory, dir);
  }
}

void PreparedView::add_step(Step::Kind kind, std::string path, std::string source, bool optional) {
  const char* full = strings_.emplace_back(root_point_ + path).c_str();
  const char* from = source.empty() ? nullptr : strings_.emplace_back(std::move(source)).c_str();
  steps_.push_back({kind, full, from, optional});
}

namespace {
// Read-only, keeping the flags the source mount has (a user namespace may
// not clear nosuid, nodev or noexec).
bool remount_read_only(const char* path) {
  struct statvfs info {};
  if (statvfs(path, &info) != 0) return false;
  unsigned long flags = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV;
  if (info.f_flag & ST_NOEXEC) flags |= MS_NOEXEC;
  if (info.f_flag & ST_NOATIME) flags |= MS_NOATIME;
  if (info.f_flag & ST_NODIRATIME) flags |= MS_NODIRATIME;
  if (info.f_flag & ST_RELATIME) flags |= MS_RELATIME;
  return mount(nullptr, path, nullptr, flags, nullptr) == 0;
}
}  // namespace

bool enter_private_root(const PreparedView& view, const char** failed_call) {
  auto failed = [&](const char* call) { return *failed_call = call, false; };
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return failed("mount private");
  const char* root = view.root_point_.c_str();
  if (mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "size=64k,mode=0755") != 0) return failed("mount tmpfs");
  for (const PreparedView::Step& step : view.steps_) {
    bool ok = true;
    switch (step.kind) {
      case PreparedView::Step::kDirectory: ok = mkdir(step.path, 0755) == 0 || errno == EEXIST; break;
      case PreparedView::Step::kFile: {
        int fd = open(step.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        ok = fd >= 0 && close(fd) == 0;
        break;
      }
      case PreparedView::Step::kSymlink: ok = symlink(step.source, step.path) == 0; break;
      case PreparedView::Step::kBind:
        ok = mount(step.source, step.path, nullptr, MS_BIND | MS_REC, nullptr) == 0 || step.optional;
        break;
      case PreparedView::Step::kReadOnly: ok = remount_read_only(step.path) || step.optional; break;
      case PreparedView::Step::kProc:
        ok = mount("proc", step.path, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) == 0;
        break;
      case PreparedView::Step::kTmpfs:
        ok = mount("tmpfs", step.path, "tmpfs", MS_NOSUID | MS_NODEV, step.source) == 0;
        break;
      case PreparedView::Step::kHideDirectory:
        ok = mount("tmpfs", step.path, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=0555") == 0;
        break;
      case PreparedView::Step::kHideFile: ok = mount("/dev/null", step.path, nullptr, MS_BIND, nullptr) == 0; break;
    }
    if (!ok) {
      bool hiding = step.kind == PreparedView::Step::kHideDirectory || step.kind == PreparedView::Step::kHideFile;
      return failed(step.kind == PreparedView::Step::kProc ? "mount proc" : hiding ? "mount hide" : "mount view");
    }
  }
  // pivot_root(".", ".") stacks the old root on the new one; detaching it
  // leaves only the view.
  if (chdir(root) != 0) return failed("chdir root");
  if (syscall(SYS_pivot_root, ".", ".") != 0) return failed("pivot_root");
  if (umount2(".", MNT_DETACH) != 0) return failed("umount old root");
  if (mount(nullptr, "/", nullptr, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, nullptr) != 0)
    return failed("remount root");
  if (chdir(view.working_dir_.c_str()) != 0) return failed("chdir");
  return true;
}

}  // namespace judge
