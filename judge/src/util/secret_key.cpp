// Making and reading the judge's secret key file (secret_key.hpp).
#include "util/secret_key.hpp"

#include <fcntl.h>
#include <openssl/rand.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>

#include "util/errors.hpp"
#include "util/text.hpp"

namespace judge {
namespace {
constexpr std::size_t kMaxKeyBytes = 4096;

[[noreturn]] void fail(const std::string& file, const std::string& why) {
  throw JudgeFault{fmt::format("the judge's key {}: {}", display_path(file), why)};
}

// The key in `file`; nullopt when there is no such file.
std::optional<std::string> read_key(const std::string& file) {
  int fd = open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT) return std::nullopt;
  if (fd < 0) fail(file, errno == ELOOP ? "a symbolic link; a key must be a file of its own" : std::strerror(errno));
  struct stat info {};
  std::string key;
  std::string problem;
  if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    problem = "not a regular file";
  } else if ((info.st_mode & 077) != 0) {
    problem = fmt::format("others may read or write it (mode {:04o}); chmod 600 it", info.st_mode & 07777);
  } else {
    char buffer[kMaxKeyBytes + 1];
    ssize_t n;
    while ((n = read(fd, buffer, sizeof buffer)) > 0 && key.size() <= kMaxKeyBytes)
      key.append(buffer, static_cast<std::size_t>(n));
    if (n < 0) problem = std::strerror(errno);
  }
  close(fd);
  if (problem.empty() && (key.size() < kSecretKeyBytes || key.size() > kMaxKeyBytes))
    problem = fmt::format("holds {} bytes; a key holds {} to {} (remove it and a new one is made)", key.size(),
                          kSecretKeyBytes, kMaxKeyBytes);
  if (!problem.empty()) fail(file, problem);
  return key;
}

// Makes `file` with a new key unless another judge made it first.
void create_key(const std::string& file) {
  std::error_code error;
  std::filesystem::path parent = std::filesystem::path(file).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, error);
  unsigned char key[kSecretKeyBytes];
  if (RAND_bytes(key, sizeof key) != 1) fail(file, "no random bytes for a new key (OpenSSL RAND_bytes)");
  static std::atomic<unsigned> counter{0};
  const std::string temporary = fmt::format("{}.new-{}-{}", file, getpid(), counter++);
  int fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) fail(file, fmt::format("cannot make it: {}", std::strerror(errno)));
  bool written = fchmod(fd, 0600) == 0 && write(fd, key, sizeof key) == static_cast<ssize_t>(sizeof key);
  written = close(fd) == 0 && written;
  // A hard link puts it in place only if no other judge did meanwhile.
  int saved = 0;
  if (written && link(temporary.c_str(), file.c_str()) != 0 && errno != EEXIST) saved = errno;
  if (!written) saved = errno;
  unlink(temporary.c_str());
  if (saved != 0) fail(file, fmt::format("cannot make it: {}", std::strerror(saved)));
}
}  // namespace

std::string load_or_create_secret(const std::string& file) {
  if (std::optional<std::string> key = read_key(file)) return *key;
  create_key(file);
  if (std::optional<std::string> key = read_key(file)) return *key;
  fail(file, "it vanished as it was made");
}

}  // namespace judge
