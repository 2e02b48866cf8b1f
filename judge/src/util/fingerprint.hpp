// Content fingerprints for cache keys: FNV-1a over bytes, stable across
// runs and machines. Not cryptographic; a cache key, not a signature.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace judge {

// FNV-1a, 64 bits: a stable hash of `bytes`, for seeds derived from names.
std::uint64_t fnv1a_64(std::string_view bytes);

class Fingerprint {
 public:
  // Adds `bytes` followed by a separator, so "ab"+"c" differs from "a"+"bc".
  void add(std::string_view bytes);
  // Adds a file's whole content; an unreadable file adds a marker.
  void add_file(const std::string& path);
  // Adds a file's size and modification time: for large build outputs
  // whose timestamps change whenever they are rebuilt.
  void add_file_stamp(const std::string& path);
  // Adds every regular file under `dir` (sorted), names and contents.
  void add_tree(const std::string& dir);
  // Adds, recursively, every file that `source` includes with quotes and
  // that sits beside the file including it (a learner's own helper
  // headers), names and contents, so editing one changes the key.
  void add_quoted_includes(const std::string& source);
  std::string hex() const;

 private:
  std::uint64_t hash_ = kOffsetBasis;
  static constexpr std::uint64_t kOffsetBasis = 0xcbf29ce484222325ull;
  static constexpr std::uint64_t kPrime = 0x100000001b3ull;
  friend std::uint64_t fnv1a_64(std::string_view bytes);
};

}  // namespace judge
