// Directories held by descriptor (directory.hpp).
#include "util/directory.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "util/errors.hpp"
#include "util/text.hpp"

namespace judge {
namespace {
constexpr int kDirectoryFlags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;

// What `name` in `dir_fd` is instead of a directory, for a refusal.
std::string what_it_is(int dir_fd, const std::string& name) {
  struct stat info {};
  if (fstatat(dir_fd, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) return std::strerror(errno);
  if (S_ISLNK(info.st_mode)) return "a symbolic link";
  if (S_ISREG(info.st_mode)) return "a regular file";
  return "not a directory";
}
}  // namespace

Directory Directory::open(const std::string& path, bool create) {
  std::error_code error;
  if (create) std::filesystem::create_directories(path, error);
  if (error) throw JudgeFault{fmt::format("cannot create {}: {}", display_path(path), error.message())};
  int fd = ::open(path.c_str(), kDirectoryFlags);
  if (fd < 0) throw JudgeFault{fmt::format("cannot open {}: {}", display_path(path), std::strerror(errno))};
  return Directory(fd, path);
}

Directory Directory::child(const std::string& name, bool create) const {
  const std::string path = path_of(name);
  int fd = openat(fd_, name.c_str(), kDirectoryFlags | O_NOFOLLOW);
  if (fd < 0 && errno == ENOENT && create) {
    if (mkdirat(fd_, name.c_str(), 0755) != 0 && errno != EEXIST)
      throw JudgeFault{fmt::format("cannot create {}: {}", display_path(path), std::strerror(errno))};
    fd = openat(fd_, name.c_str(), kDirectoryFlags | O_NOFOLLOW);
  }
  if (fd >= 0) return Directory(fd, path);
  if (errno == ENOENT) throw JudgeFault{fmt::format("{}: no such directory", display_path(path))};
  if (errno != ELOOP && errno != ENOTDIR)
    throw JudgeFault{fmt::format("cannot open {}: {}", display_path(path), std::strerror(errno))};
  throw JudgeFault{fmt::format("{} is {}, not a directory: refusing to read or write through it", display_path(path),
                               what_it_is(fd_, name))};
}

std::optional<std::string> Directory::read(const std::string& name, std::uint64_t max_bytes, ReadRefusal* refusal,
                                           int* error_number) const {
  return read_regular_file_at(fd_, name, max_bytes, refusal, error_number);
}

void Directory::write(const std::string& name, const std::string& content) const {
  write_file_atomically_at(fd_, name, content, path_of(name));
}

void Directory::remove_write_leftovers() const {
  int fd = dup(fd_);
  DIR* stream = fd < 0 ? nullptr : fdopendir(fd);
  if (!stream) {
    if (fd >= 0) close(fd);
    return;
  }
  std::vector<std::string> leftovers;
  while (dirent* entry = readdir(stream))
    if (is_atomic_write_leftover(entry->d_name)) leftovers.emplace_back(entry->d_name);
  closedir(stream);
  for (const std::string& name : leftovers) unlinkat(fd_, name.c_str(), 0);
}

std::string Directory::path_of(const std::string& name) const { return (std::filesystem::path(path_) / name).string(); }

Directory::Directory(Directory&& other) noexcept : fd_(other.fd_), path_(std::move(other.path_)) { other.fd_ = -1; }

Directory& Directory::operator=(Directory&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) close(fd_);
    fd_ = other.fd_;
    path_ = std::move(other.path_);
    other.fd_ = -1;
  }
  return *this;
}

Directory::~Directory() {
  if (fd_ >= 0) close(fd_);
}

}  // namespace judge
