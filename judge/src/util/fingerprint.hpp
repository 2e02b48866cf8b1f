// Content fingerprints for cache keys: SHA-256 (OpenSSL's libcrypto) over
// everything that decides a cached runner or result, so that no crafted
// input can collide with another's key.
#pragma once

#include <openssl/evp.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace judge {

// FNV-1a, 64 bits: a stable, fast, non-cryptographic hash of `bytes`, for
// seeds derived from names. Never a cache key.
std::uint64_t fnv1a_64(std::string_view bytes);

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
