// Sealing a cached runner and checking its seal (runner_seal.hpp).
#include "compile/runner_seal.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <optional>

#include "util/errors.hpp"
#include "util/fingerprint.hpp"
#include "util/text.hpp"

namespace judge {
namespace {
constexpr char kMarker[16] = "judge-runner-v1";  // with its NUL: 16 bytes
constexpr std::size_t kDigestBytes = 32;
constexpr std::size_t kSealBytes = sizeof kMarker + 8 + kDigestBytes;

std::string little_endian(std::uint64_t value) {
  std::string bytes(8, '\0');
  for (int i = 0; i < 8; ++i) bytes[static_cast<std::size_t>(i)] = static_cast<char>((value >> (8 * i)) & 0xff);
  return bytes;
}

std::uint64_t from_little_endian(const char* bytes) {
  std::uint64_t value = 0;
  for (int i = 7; i >= 0; --i) value = (value << 8) | static_cast<unsigned char>(bytes[i]);
  return value;
}

// The runner's length, before its seal; nullopt when `fd` holds no seal.
std::optional<std::uint64_t> sealed_length(int fd, std::string* digest) {
  struct stat info {};
  if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) || static_cast<std::uint64_t>(info.st_size) < kSealBytes)
    return std::nullopt;
  const std::uint64_t length = static_cast<std::uint64_t>(info.st_size) - kSealBytes;
  char seal[kSealBytes];
  if (pread(fd, seal, kSealBytes, static_cast<off_t>(length)) != static_cast<ssize_t>(kSealBytes)) return std::nullopt;
  if (std::memcmp(seal, kMarker, sizeof kMarker) != 0 || from_little_endian(seal + sizeof kMarker) != length)
    return std::nullopt;
  digest->assign(seal + sizeof kMarker + 8, kDigestBytes);
  return length;
}
}  // namespace

void seal_runner(const std::string& path) {
  int fd = open(path.c_str(), O_RDWR | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) throw JudgeFault{fmt::format("cannot seal the runner {}: {}", display_path(path), std::strerror(errno))};
  struct stat info {};
  std::optional<std::string> digest;
  if (fstat(fd, &info) == 0) digest = sha256_of_file_start(fd, static_cast<std::uint64_t>(info.st_size));
  std::string seal;
  if (digest)
    seal = std::string(kMarker, sizeof kMarker) + little_endian(static_cast<std::uint64_t>(info.st_size)) + *digest;
  bool sealed = digest && pwrite(fd, seal.data(), seal.size(), info.st_size) == static_cast<ssize_t>(seal.size());
  int saved = sealed ? 0 : errno;
  if (close(fd) != 0 && sealed) {
    sealed = false;
    saved = errno;
  }
  if (!sealed) throw JudgeFault{fmt::format("cannot seal the runner {}: {}", display_path(path), std::strerror(saved))};
}

bool runner_seal_holds(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return false;
  std::string digest;
  std::optional<std::uint64_t> length = sealed_length(fd, &digest);
  std::optional<std::string> actual = length ? sha256_of_file_start(fd, *length) : std::nullopt;
  close(fd);
  return actual && equal_in_constant_time(*actual, digest);
}

}  // namespace judge
