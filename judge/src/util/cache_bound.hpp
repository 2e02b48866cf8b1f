// The bound on the judge's cache, shared by its two growing parts: compiled
// runners take seven eighths of it and stored results one eighth. Past its
// share, a part loses the files used least recently.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

namespace judge {

// JUDGE_CACHE_MAX_MB in bytes (at least 1 MiB); 2 GiB when unset or not
// such a number.
std::uint64_t cache_bound_bytes();
// The runners' share (7/8 of the bound) and the results' (1/8).
std::uint64_t runner_bound_bytes();
std::uint64_t result_bound_bytes();

// One cached file, its size and when it was last used (its modification
// time, which mark_used() sets).
struct CachedFile {
  std::filesystem::path path;
  std::uint64_t bytes = 0;
  std::filesystem::file_time_type used;
};

// The regular files directly in `dir` whose names `wanted` accepts; none
// when `dir` cannot be read.
template <typename Wanted>
std::vector<CachedFile> cached_files(const std::filesystem::path& dir, Wanted wanted) {
  std::vector<CachedFile> files;
  std::error_code error;
  for (auto it = std::filesystem::directory_iterator(dir, error); !error && it != std::filesystem::directory_iterator();
       it.increment(error)) {
    std::error_code entry_error;
    if (!it->is_regular_file(entry_error) || !wanted(it->path().filename().string())) continue;
    CachedFile file{it->path(), it->file_size(entry_error), it->last_write_time(entry_error)};
    if (!entry_error) files.push_back(file);
  }
  return files;
}

// Removes the least recently used of `files` until the rest fit in
// `bound` bytes, sparing any used at or after `spare_since`. A file that
// cannot be removed is skipped. Returns the bytes left.
std::uint64_t evict_least_recently_used(std::vector<CachedFile> files, std::uint64_t bound,
                                        std::filesystem::file_time_type spare_since);

// Marks `path` used now (its modification time), for the eviction order.
void mark_used(const std::string& path);

}  // namespace judge
