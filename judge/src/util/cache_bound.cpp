// The cache's bound and its least-recently-used eviction (cache_bound.hpp).
#include "util/cache_bound.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>

#include "util/environment.hpp"

namespace judge {
namespace {
constexpr std::uint64_t kDefaultBoundBytes = 2ull << 30;
}  // namespace

std::uint64_t cache_bound_bytes() {
  return static_cast<std::uint64_t>(environment_integer("JUDGE_CACHE_MAX_MB", 1, std::int64_t{1} << 40,
                                                        static_cast<std::int64_t>(kDefaultBoundBytes >> 20)))
         << 20;
}

std::uint64_t runner_bound_bytes() { return cache_bound_bytes() - result_bound_bytes(); }

std::uint64_t result_bound_bytes() { return cache_bound_bytes() / 8; }

std::uint64_t evict_least_recently_used(std::vector<CachedFile> files, std::uint64_t bound,
                                        std::filesystem::file_time_type spare_since) {
  std::uint64_t total = 0;
  for (const CachedFile& file : files) total += file.bytes;
  if (total <= bound) return total;
  std::sort(files.begin(), files.end(), [](const CachedFile& a, const CachedFile& b) { return a.used < b.used; });
  std::error_code error;
  for (const CachedFile& file : files) {
    if (total <= bound || file.used >= spare_since) break;
    if (std::filesystem::remove(file.path, error)) total -= file.bytes;
  }
  return total;
}

void mark_used(const std::string& path) { utimensat(AT_FDCWD, path.c_str(), nullptr, 0); }

}  // namespace judge
