// Content fingerprints for cache keys: SHA-256 (OpenSSL's libcrypto) over
// everything that decides a cached runner or result, so that no crafted
// input can collide with another's key; and HMAC-SHA-256 for sealing what
// the judge stores where others could edit it.
#pragma once

#include <openssl/evp.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace judge {

// FNV-1a, 64 bits: a stable, fast, non-cryptographic hash of `bytes`, for
// seeds derived from names. Never a cache key.
std::uint64_t fnv1a_64(std::string_view bytes);

// HMAC-SHA-256 (RFC 2104) of `message` under `key`, as 64 hexadecimal
// digits. Throws JudgeFault when OpenSSL fails.
std::string hmac_sha256_hex(std::string_view key, std::string_view message);

// Whether two strings are equal, in a time that depends on their length
// only (for comparing a seal with the one expected).
bool equal_in_constant_time(std::string_view a, std::string_view b);

// The SHA-256 (32 raw bytes) of the first `bytes` bytes of the open file
// `fd`, read with pread from its start; nullopt when the file holds fewer
// or cannot be read.
std::optional<std::string> sha256_of_file_start(int fd, std::uint64_t bytes);

class Fingerprint {
 public:
  Fingerprint();
  // Adds `bytes` with their length, so "ab"+"c" differs from "a"+"bc".
  void add(std::string_view bytes);
  // Adds a file's whole content; an unreadable file adds a marker. For the
  // judge's own files only: never a path a submission names.
  void add_file(const std::string& path);
  // Adds a file's path, size and modification time: for large build outputs
  // whose timestamps change whenever they are rebuilt.
  void add_file_stamp(const std::string& path);
  // Adds every regular file under `dir` (sorted), names and contents.
  void add_tree(const std::string& dir);
  // The digest so far, as 64 hexadecimal digits.
  std::string hex() const;

 private:
  struct ContextFree {
    void operator()(EVP_MD_CTX* context) const { EVP_MD_CTX_free(context); }
  };
  std::unique_ptr<EVP_MD_CTX, ContextFree> context_;
};

}  // namespace judge
