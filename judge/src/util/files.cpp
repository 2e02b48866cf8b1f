// Whole-file reads and atomic writes.
#include "util/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

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

std::optional<std::string> read_regular_file(const std::string& path, std::uint64_t max_bytes, ReadRefusal* refusal,
                                             int* error_number) {
  *refusal = ReadRefusal::kNone;
  int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
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

void write_file_atomically(const std::string& path, const std::string& content) {
  // Unique per process and per call: threads of one judge write at once too.
  static std::atomic<unsigned> counter{0};
  std::string temporary = fmt::format("{}{}{}-{}", path, kTemporaryMarker, getpid(), counter++);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << content;
    out.flush();
    if (!out) {
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      throw JudgeFault{fmt::format("cannot write {}", display_path(temporary))};
    }
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw JudgeFault{fmt::format("cannot write {}: {}", display_path(path), error.message())};
  }
}

bool is_atomic_write_leftover(const std::string& file_name) {
  return file_name.find(kTemporaryMarker) != std::string::npos;
}

}  // namespace judge
