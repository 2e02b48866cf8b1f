// The runner cache: compiled runners under the cache directory, named by
// the hash of everything they are made of, each sealed with its length and
// SHA-256 (runner_seal.hpp), and bounded in size. Past the bound, the
// runners used least recently are removed (those used in the last few
// minutes never are: a judge may be about to start one).
#pragma once

#include <cstdint>
#include <string>

namespace judge {

class RunnerCache {
 public:
  explicit RunnerCache(std::string cache_dir);

  // Where the runner of `slug` with `key` lives (it may not exist).
  std::string runner_path(const std::string& slug, const std::string& key) const;
  // True when `path` holds a runner whose seal holds (runner_seal.hpp);
  // marks it used now. A runner whose seal does not hold (cut short,
  // changed, or stored by a judge that did not seal) is removed, and false
  // is returned, so that it is built again.
  bool reuse(const std::string& path) const;
  // Seals a freshly linked runner and moves it into the cache at `path`
  // (unless another build stored it first), then removes least recently
  // used runners past the bound. Throws JudgeFault when it cannot be
  // sealed or stored.
  void store(const std::string& built, const std::string& path) const;

  // The bound on runners in bytes: their share of JUDGE_CACHE_MAX_MB
  // (util/cache_bound.hpp).
  static std::uint64_t bound_bytes();

 private:
  void evict() const;
  std::string dir_;
};

// What the cache directory holds, by kind, for `judge cache`.
struct CacheUsage {
  std::uint64_t runners = 0, runner_bytes = 0;
  std::uint64_t results = 0, result_bytes = 0;
  std::uint64_t other_bytes = 0;  // build inputs, precompiled preludes, compiler identities
};
CacheUsage cache_usage(const std::string& cache_dir);

// Removes everything in the cache directory but the judge's key
// (util/secret_key.hpp; the directory stays); returns the bytes freed.
std::uint64_t clear_cache(const std::string& cache_dir);

}  // namespace judge
