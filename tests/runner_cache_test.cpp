// The runner cache: runners reused and marked used, a runner cut short or
// changed not reused, least recently used evicted past the bound (never
// one used in the last minutes), usage by kind, clearing.
#include "compile/runner_cache.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "util/secret_key.hpp"

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

TEST_F(RunnerCacheTest, ARunnerCutShortOrChangedIsNotReusedButRemoved) {
  RunnerCache cache(dir_.string());
  struct Damage {
    const char* what;
    std::function<void(const std::string&)> damage;
  };
  const std::vector<Damage> damages = {
      {"cut short by its last byte", [](const std::string& path) { fs::resize_file(path, fs::file_size(path) - 1); }},
      {"cut to half", [](const std::string& path) { fs::resize_file(path, fs::file_size(path) / 2); }},
      {"emptied", [](const std::string& path) { fs::resize_file(path, 0); }},
      {"a byte changed, its size kept",
       [](const std::string& path) {
         std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
         file.seekp(1000);
         file.put('y');
       }},
      {"grown", [](const std::string& path) { std::ofstream(path, std::ios::app) << "more"; }},
      {"never sealed (a runner of an older judge)",
       [](const std::string& path) { std::ofstream(path, std::ios::trunc) << std::string(4096, 'x'); }},
  };
  for (const Damage& damage : damages) {
    std::string path = store(cache, "d", 1, 1);
    ASSERT_TRUE(cache.reuse(path)) << "a runner as stored is reused";
    damage.damage(path);
    EXPECT_FALSE(cache.reuse(path)) << damage.what;
    EXPECT_FALSE(fs::exists(path)) << damage.what << ": removed, so that it is built again";
  }
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
  const std::uint64_t runner = fs::file_size(store(cache, "a", 1, 1));  // 1 MiB and its seal
  EXPECT_GT(runner, 1u << 20);
  fs::create_directories(dir_ / "results");
  std::ofstream(dir_ / "results" / "k.json") << "{}";
  std::ofstream(dir_ / "compiler-x.txt") << "g++ 12";
  std::ofstream(dir_ / kCacheKeyFile) << std::string(kSecretKeyBytes, 'k');
  CacheUsage usage = cache_usage(dir_.string());
  EXPECT_EQ(usage.runners, 1u);
  EXPECT_EQ(usage.runner_bytes, runner);
  EXPECT_EQ(usage.results, 1u);
  EXPECT_EQ(usage.result_bytes, 2u);
  EXPECT_EQ(usage.other_bytes, 6u + kSecretKeyBytes);
  EXPECT_EQ(clear_cache(dir_.string()), runner + 2u + 6u);
  // The judge's key is no cache: results it sealed stay trusted.
  EXPECT_EQ(std::vector<fs::path>(fs::directory_iterator(dir_), fs::directory_iterator()),
            std::vector<fs::path>{dir_ / kCacheKeyFile});
}

}  // namespace
}  // namespace judge
