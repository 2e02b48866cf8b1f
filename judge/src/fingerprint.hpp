// Content fingerprints for cache keys: FNV-1a over bytes, stable across
// runs and machines. Not cryptographic; a cache key, not a signature.
#pragma once

#include <cstdint>
#include <string>

namespace judge {

class Fingerprint {
 public:
  // Adds `bytes` followed by a separator, so "ab"+"c" differs from "a"+"bc".
  void add(const std::string& bytes);
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
  std::uint64_t hash_ = 0xcbf29ce484222325ull;
};

std::string read_whole_file(const std::string& path);

}  // namespace judge
