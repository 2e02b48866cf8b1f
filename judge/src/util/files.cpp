// Whole-file reads and atomic writes.
#include "util/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "util/errors.hpp"
#include "util/text.hpp"

namespace judge {
namespace {
constexpr const char* kTemporaryMarker = ".tmp-";
}  // namespace

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

std::string read_file_or_empty(const std::string& path) { return read_file(path).value_or(""); }

namespace {
// read_regular_file() of a descriptor just opened (or -1 with errno set).
std::optional<std::string> read_opened(int fd, std::uint64_t max_bytes, ReadRefusal* refusal, int* error_number) {
  *refusal = ReadRefusal::kNone;
  if (fd < 0) {
    if (error_number) *error_number = errno;
    *refusal = ReadRefusal::kCannotOpen;
    return std::nullopt;
  }
  struct stat info {};
  std::string content;
  if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    *refusal = ReadRefusal::kNotRegular;
  } else if (static_cast<std::uint64_t>(info.st_size) > max_bytes) {
    *refusal = ReadRefusal::kTooLarge;
  } else {
    char buffer[65536];
    ssize_t n;
    while ((n = read(fd, buffer, sizeof buffer)) > 0 && *refusal == ReadRefusal::kNone) {
      content.append(buffer, static_cast<std::size_t>(n));
      if (content.size() > max_bytes) *refusal = ReadRefusal::kTooLarge;  // it grew while read
    }
  }
  close(fd);
  if (*refusal != ReadRefusal::kNone) return std::nullopt;
  return content;
}

// Writes all of `content` to `fd`; false with errno set when it cannot.
bool write_all(int fd, const std::string& content) {
  for (std::size_t done = 0; done < content.size();) {
    ssize_t n = write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}
}  // namespace

std::optional<std::string> read_regular_file(const std::string& path, std::uint64_t max_bytes, ReadRefusal* refusal,
                                             int* error_number) {
  int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  return read_opened(fd, max_bytes, refusal, error_number);
}

std::optional<std::string> read_regular_file_at(int dir_fd, const std::string& name, std::uint64_t max_bytes,
                                                ReadRefusal* refusal, int* error_number) {
  int fd = openat(dir_fd, name.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0 && errno == ELOOP) {  // a symbolic link, not followed
    *refusal = ReadRefusal::kNotRegular;
    return std::nullopt;
  }
  return read_opened(fd, max_bytes, refusal, error_number);
}

void write_file_atomically(const std::string& path, const std::string& content) {
  std::filesystem::path file(path);
  std::string parent = file.has_parent_path() ? file.parent_path().string() : ".";
  int dir_fd = open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0) throw JudgeFault{fmt::format("cannot write {}: {}", display_path(path), std::strerror(errno))};
  try {
    write_file_atomically_at(dir_fd, file.filename().string(), content, path);
  } catch (...) {
    close(dir_fd);
    throw;
  }
  close(dir_fd);
}

void write_file_atomically_at(int dir_fd, const std::string& name, const std::string& content,
                              const std::string& shown) {
  // Unique per process and per call: threads of one judge write at once too.
  static std::atomic<unsigned> counter{0};
  const std::string temporary = fmt::format("{}{}{}-{}", name, kTemporaryMarker, getpid(), counter++);
  int fd = openat(dir_fd, temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) throw JudgeFault{fmt::format("cannot write {}: {}", display_path(shown), std::strerror(errno))};
  bool written = write_all(fd, content);
  int saved = errno;
  if (close(fd) != 0 && written) {
    written = false;
    saved = errno;
  }
  if (written && renameat(dir_fd, temporary.c_str(), dir_fd, name.c_str()) == 0) return;
  if (written) saved = errno;
  unlinkat(dir_fd, temporary.c_str(), 0);
  throw JudgeFault{fmt::format("cannot write {}: {}", display_path(shown), std::strerror(saved))};
}

bool is_atomic_write_leftover(const std::string& file_name) {
  return file_name.find(kTemporaryMarker) != std::string::npos;
}

}  // namespace judge
