// Fingerprint: FNV-1a 64.
#include "util/fingerprint.hpp"

#include <sys/stat.h>

#include <fmt/format.h>
#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <vector>

#include "util/files.hpp"

namespace judge {

std::uint64_t fnv1a_64(std::string_view bytes) {
  std::uint64_t hash = Fingerprint::kOffsetBasis;
  for (unsigned char c : bytes) hash = (hash ^ c) * Fingerprint::kPrime;
  return hash;
}

void Fingerprint::add(std::string_view bytes) {
  for (unsigned char c : bytes) hash_ = (hash_ ^ c) * kPrime;
  hash_ = (hash_ ^ 0xff) * kPrime;
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

void Fingerprint::add_quoted_includes(const std::string& source) {
  static const std::regex kQuotedInclude(R"re(^\s*#\s*include\s*"([^"]+)")re");
  std::set<std::string> seen{std::filesystem::absolute(source).lexically_normal().string()};
  std::vector<std::string> pending(seen.begin(), seen.end());
  while (!pending.empty()) {
    std::string file = pending.back();
    pending.pop_back();
    std::istringstream lines(read_file_or_empty(file));
    for (std::string line; std::getline(lines, line);) {
      std::smatch match;
      if (!std::regex_search(line, match, kQuotedInclude)) continue;
      std::filesystem::path included = (std::filesystem::path(file).parent_path() / match[1].str()).lexically_normal();
      std::error_code error;
      if (!std::filesystem::is_regular_file(included, error) || !seen.insert(included.string()).second) continue;
      add(included.string());
      add_file(included.string());
      pending.push_back(included.string());
    }
  }
}

std::string Fingerprint::hex() const { return fmt::format("{:016x}", hash_); }

}  // namespace judge
