// Fingerprint: SHA-256 through OpenSSL's EVP interface.
#include "util/fingerprint.hpp"

#include <openssl/crypto.h>
#include <openssl/hmac.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include <fmt/format.h>
#include <algorithm>
#include <filesystem>
#include <vector>

#include "util/errors.hpp"
#include "util/files.hpp"

namespace judge {

std::uint64_t fnv1a_64(std::string_view bytes) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) hash = (hash ^ c) * 0x100000001b3ull;
  return hash;
}

std::string hmac_sha256_hex(std::string_view key, std::string_view message) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (!HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
            reinterpret_cast<const unsigned char*>(message.data()), message.size(), digest, &size))
    throw JudgeFault{"cannot compute an HMAC-SHA-256 (OpenSSL)"};
  std::string out;
  for (unsigned int i = 0; i < size; ++i) out += fmt::format("{:02x}", digest[i]);
  return out;
}

bool equal_in_constant_time(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::optional<std::string> sha256_of_file_start(int fd, std::uint64_t bytes) {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  if (!context || EVP_DigestInit_ex(context.get(), EVP_sha256(), nullptr) != 1)
    throw JudgeFault{"cannot start a SHA-256 digest (OpenSSL)"};
  std::vector<char> buffer(1 << 20);
  for (std::uint64_t done = 0; done < bytes;) {
    std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size(), bytes - done));
    ssize_t got = pread(fd, buffer.data(), want, static_cast<off_t>(done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return std::nullopt;
    EVP_DigestUpdate(context.get(), buffer.data(), static_cast<std::size_t>(got));
    done += static_cast<std::uint64_t>(got);
  }
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_DigestFinal_ex(context.get(), digest, &size) != 1)
    throw JudgeFault{"cannot finish a SHA-256 digest (OpenSSL)"};
  return std::string(reinterpret_cast<const char*>(digest), size);
}

Fingerprint::Fingerprint() : context_(EVP_MD_CTX_new()) {
  if (!context_ || EVP_DigestInit_ex(context_.get(), EVP_sha256(), nullptr) != 1)
    throw JudgeFault{"cannot start a SHA-256 digest (OpenSSL)"};
}

void Fingerprint::add(std::string_view bytes) {
  std::uint64_t size = bytes.size();
  EVP_DigestUpdate(context_.get(), &size, sizeof size);
  EVP_DigestUpdate(context_.get(), bytes.data(), bytes.size());
}

void Fingerprint::add_file(const std::string& path) {
  std::optional<std::string> content = read_file(path);
  add(content ? *content : std::string("\x01missing:") + path);
}

void Fingerprint::add_file_stamp(const std::string& path) {
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) return add("\x01missing:" + path);
  add(fmt::format("{}:{}:{}.{}", path, info.st_size, info.st_mtim.tv_sec, info.st_mtim.tv_nsec));
}

void Fingerprint::add_tree(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code error;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, error);
       !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error))
    if (it->is_regular_file()) files.push_back(it->path().string());
  std::sort(files.begin(), files.end());
  for (const std::string& file : files) {
    add(file);
    add_file(file);
  }
}

std::string Fingerprint::hex() const {
  // A copy, so the digest can go on after it is read.
  std::unique_ptr<EVP_MD_CTX, ContextFree> copy(EVP_MD_CTX_new());
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (!copy || EVP_MD_CTX_copy_ex(copy.get(), context_.get()) != 1 ||
      EVP_DigestFinal_ex(copy.get(), digest, &size) != 1)
    throw JudgeFault{"cannot finish a SHA-256 digest (OpenSSL)"};
  std::string out;
  for (unsigned int i = 0; i < size; ++i) out += fmt::format("{:02x}", digest[i]);
  return out;
}

}  // namespace judge
