// Whole-file reads and atomic writes.
#include "util/files.hpp"

#include <unistd.h>

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
