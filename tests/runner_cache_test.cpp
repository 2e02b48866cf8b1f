// The runner cache: runners reused and marked used, least recently used
// evicted past the bound (never one used in the last minutes), usage by
// kind, clearing.
#include "build/runner_cache.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace judge {
namespace {
namespace fs = std::filesystem;

class RunnerCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("judge-runner-cache-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    setenv("JUDGE_CACHE_MAX_MB", "4", 1);  // runners get 3.5 MiB of it
  }
  void TearDown() override {
    unsetenv("JUDGE_CACHE_MAX_MB");
    fs::remove_all(dir_);
  }

  // A runner of `megabytes` stored now, then made to look used `hours_ago`.
  std::string store(const RunnerCache& cache, const std::string& key, int megabytes, int hours_ago) {
    fs::path built = dir_ / ("built-" + key);
    std::ofstream(built) << std::string(static_cast<std::size_t>(megabytes) << 20, 'x');
    std::string path = cache.runner_path("demo", std::string(64 - key.size(), '0') + key);
    cache.store(built.string(), path);
    age(path, hours_ago);
    return path;
  }
  void age(const std::string& path, int hours_ago) {
    if (!fs::exists(path)) return;
    fs::last_write_time(path, fs::file_time_type::clock::now() - std::chrono::hours(hours_ago));
  }

  fs::path dir_;
};

TEST_F(RunnerCacheTest, ReuseMarksARunnerUsed) {
  RunnerCache cache(dir_.string());
  std::string path = store(cache, "a", 1, 5);
  auto before = fs::last_write_time(path);
  EXPECT_TRUE(cache.reuse(path));
  EXPECT_GT(fs::last_write_time(path), before);
  EXPECT_FALSE(cache.reuse(cache.runner_path("demo", std::string(64, 'f'))));
}

TEST_F(RunnerCacheTest, PastTheBoundTheLeastRecentlyUsedGo) {
  RunnerCache cache(dir_.string());
  std::string oldest = store(cache, "1", 1, 30);
  std::string older = store(cache, "2", 1, 20);
  std::string newer = store(cache, "3", 1, 10);
  EXPECT_TRUE(fs::exists(oldest) && fs::exists(older) && fs::exists(newer)) << "3 MiB is within the bound";
  std::string newest = store(cache, "4", 1, 5);  // over 3.5 MiB: one must go, the oldest
  EXPECT_FALSE(fs::exists(oldest));
  EXPECT_TRUE(fs::exists(older));
  EXPECT_TRUE(fs::exists(newest));
  cache.reuse(older);  // used now: the next eviction takes `newer`, the least recently used
  store(cache, "5", 1, 1);
  EXPECT_TRUE(fs::exists(older));
  EXPECT_FALSE(fs::exists(newer));
}

TEST_F(RunnerCacheTest, ARunnerUsedInTheLastMinutesIsNeverEvicted) {
  RunnerCache cache(dir_.string());
  std::string a = store(cache, "a", 2, 0);
  std::string b = store(cache, "b", 2, 0);  // 4 MiB, but both used just now
  EXPECT_TRUE(fs::exists(a));
  EXPECT_TRUE(fs::exists(b));
}

TEST_F(RunnerCacheTest, UsageByKindAndClearing) {
  RunnerCache cache(dir_.string());
  store(cache, "a", 1, 1);
  fs::create_directories(dir_ / "results");
  std::ofstream(dir_ / "results" / "k.json") << "{}";
  std::ofstream(dir_ / "compiler-x.txt") << "g++ 12";
  CacheUsage usage = cache_usage(dir_.string());
  EXPECT_EQ(usage.runners, 1u);
  EXPECT_EQ(usage.runner_bytes, 1u << 20);
  EXPECT_EQ(usage.results, 1u);
  EXPECT_EQ(usage.result_bytes, 2u);
  EXPECT_EQ(usage.other_bytes, 6u);
  EXPECT_EQ(clear_cache(dir_.string()), (1u << 20) + 2u + 6u);
  EXPECT_TRUE(fs::is_empty(dir_));
}

}  // namespace
}  // namespace judge
