// The result cache: a stored result is answered again and marked used;
// past the results' share of the cache's bound the least recently used
// results go, so the cache of a judge used for months stays bounded.
#include "judging/result_cache.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "util/cache_bound.hpp"

namespace judge {
namespace {
namespace fs = std::filesystem;

class ResultCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    paths_.cache_dir = (fs::temp_directory_path() / ("judge-result-cache-" + std::to_string(getpid()))).string();
    fs::remove_all(paths_.cache_dir);
    setenv("JUDGE_CACHE_MAX_MB", "1", 1);  // results get an eighth: 128 KiB
  }
  void TearDown() override {
    unsetenv("JUDGE_CACHE_MAX_MB");
    fs::remove_all(paths_.cache_dir);
  }

  // A result of about `kibibytes` KiB stored under `key`, then made to
  // look used `hours_ago`.
  fs::path store(const std::string& key, int kibibytes, int hours_ago) {
    ProblemResult result;
    result.problem = "demo";
    result.verdict = Verdict::kWrongAnswer;
    TestResult test;
    test.name = "big";
    test.verdict = Verdict::kWrongAnswer;
    test.message = std::string(static_cast<std::size_t>(kibibytes) << 10, 'm');
    result.tests.push_back(test);
    store_cached_result(paths_, key, result);
    fs::path file = fs::path(paths_.cache_dir) / "results" / (key + ".json");
    if (fs::exists(file)) fs::last_write_time(file, fs::file_time_type::clock::now() - std::chrono::hours(hours_ago));
    return file;
  }

  Paths paths_;
};

TEST_F(ResultCacheTest, PastTheirShareTheLeastRecentlyUsedResultsGo) {
  ASSERT_EQ(result_bound_bytes(), 128u << 10);
  fs::path oldest = store("a", 40, 30);
  fs::path older = store("b", 40, 20);
  fs::path newer = store("c", 40, 10);
  EXPECT_TRUE(fs::exists(oldest) && fs::exists(older) && fs::exists(newer)) << "120 KiB is within the share";
  fs::path newest = store("d", 40, 5);  // 160 KiB: one must go, the oldest
  EXPECT_FALSE(fs::exists(oldest));
  EXPECT_TRUE(fs::exists(older) && fs::exists(newer) && fs::exists(newest));

  std::optional<ProblemResult> again = load_cached_result(paths_, "b");  // used now
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->tests.at(0).message.size(), 40u << 10);
  store("e", 40, 1);  // the next to go is `newer`, now the least recently used
  EXPECT_TRUE(fs::exists(older));
  EXPECT_FALSE(fs::exists(newer));
  EXPECT_FALSE(load_cached_result(paths_, "c").has_value());
}

}  // namespace
}  // namespace judge
