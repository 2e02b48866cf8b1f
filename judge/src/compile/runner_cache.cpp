// Runners in the cache: storing, reusing, evicting, measuring, clearing.
#include "compile/runner_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "compile/runner_seal.hpp"
#include "util/cache_bound.hpp"
#include "util/errors.hpp"
#include "util/secret_key.hpp"
#include "util/text.hpp"

namespace judge {
namespace fs = std::filesystem;
namespace {
// A runner used this recently is never evicted: a judge may be starting it.
constexpr auto kProtectedAge = std::chrono::minutes(10);

// Runner files are named SLUG-HASH, with a 64-digit hash.
bool is_runner_name(const std::string& name) {
  std::size_t dash = name.rfind('-');
  if (dash == std::string::npos || name.size() - dash - 1 != 64) return false;
  return std::all_of(name.begin() + static_cast<long>(dash) + 1, name.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

std::uint64_t tree_bytes(const fs::path& path) {
  std::error_code error;
  if (!fs::is_directory(path, error)) {
    std::uintmax_t size = fs::file_size(path, error);
    return error ? 0 : size;
  }
  std::uint64_t total = 0;
  for (auto it = fs::recursive_directory_iterator(path, error); !error && it != fs::recursive_directory_iterator();
       it.increment(error))
    if (it->is_regular_file(error)) total += it->file_size(error);
  return total;
}
}  // namespace

RunnerCache::RunnerCache(std::string cache_dir) : dir_(std::move(cache_dir)) {}

std::string RunnerCache::runner_path(const std::string& slug, const std::string& key) const {
  return (fs::path(dir_) / fmt::format("{}-{}", slug, key)).string();
}

bool RunnerCache::reuse(const std::string& path) const {
  std::error_code error;
  if (!fs::exists(fs::symlink_status(path, error))) return false;
  if (!runner_seal_holds(path)) {
    // Cut short or changed since it was stored: built again in its place.
    fs::remove(path, error);
    return false;
  }
  mark_used(path);  // for the eviction order
  return true;
}

void RunnerCache::store(const std::string& built, const std::string& path) const {
  // Owned by the judge's user and runnable by any (a runner may run as a
  // user of its own), whoever linked it.
  [[maybe_unused]] int owned = chown(built.c_str(), geteuid(), getegid());
  chmod(built.c_str(), 0755);
  seal_runner(built);  // before it is in place: a runner in the cache is whole and sealed, or absent
  // Never replace a runner another build stored meanwhile: a sandboxed
  // runner being started from it pins its inode (the exec descriptor) and
  // its path (the Landlock execute rule), and a rename over it between the
  // two makes the exec fail. A hard link stores it only if it is absent.
  std::error_code error;
  if (link(built.c_str(), path.c_str()) == 0 || errno == EEXIST)
    fs::remove(built, error);
  else
    fs::rename(built, path, error);  // no hard links here
  if (error && !fs::is_regular_file(path))
    throw JudgeFault{fmt::format("cannot store the runner in {}: {}", display_path(path), error.message())};
  evict();
}

std::uint64_t RunnerCache::bound_bytes() { return runner_bound_bytes(); }

void RunnerCache::evict() const {
  evict_least_recently_used(cached_files(dir_, is_runner_name), bound_bytes(),
                            fs::file_time_type::clock::now() - kProtectedAge);
}

CacheUsage cache_usage(const std::string& cache_dir) {
  CacheUsage usage;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(cache_dir, error)) {
    std::string name = entry.path().filename().string();
    std::uint64_t bytes = tree_bytes(entry.path());
    if (entry.is_regular_file(error) && is_runner_name(name)) {
      ++usage.runners;
      usage.runner_bytes += bytes;
    } else if (name == "results") {
      for (const fs::directory_entry& result : fs::directory_iterator(entry.path(), error)) {
        ++usage.results;
        usage.result_bytes += tree_bytes(result.path());
      }
    } else {
      usage.other_bytes += bytes;
    }
  }
  return usage;
}

std::uint64_t clear_cache(const std::string& cache_dir) {
  std::uint64_t freed = 0;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(cache_dir, error)) {
    if (entry.path().filename() == kCacheKeyFile) continue;  // a key, not a cache
    std::uint64_t bytes = tree_bytes(entry.path());
    if (fs::remove_all(entry.path(), error) != static_cast<std::uintmax_t>(-1) && !error) freed += bytes;
  }
  return freed;
}

}  // namespace judge
