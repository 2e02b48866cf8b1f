// Known mistakes' results kept on disk (judging/mistake_results.hpp): what
// is stored comes back whole, what depends on timing is never stored, and
// through the CLI, on the tests' own fixture package (tests/fixtures/draws),
// a second wrong run takes its hint from the store until the problem's
// files change.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "judging/mistake_results.hpp"
#include "run_judge.hpp"
#include "scratch_root.hpp"
#include "util/files.hpp"

namespace judge {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

struct Store {
  Store() : dir(fs::path(JUDGE_TEST_BINARY_DIR) / "scratch_roots" / "mistake_store") {
    fs::remove_all(dir);
    paths.cache_dir = dir.string();
  }
  MistakeResults open(const std::string& mistake = "/cache/m-1", const std::string& problem_key = "problem") const {
    return MistakeResults(paths, problem_key, mistake, "/cache/reference-1");
  }
  fs::path dir;
  Paths paths;
};

TestResult failure(Verdict verdict, const std::string& kind, json returned) {
  TestResult result;
  result.verdict = verdict;
  result.failure_kind = kind;
  result.returned = std::move(returned);
  return result;
}

TEST(MistakeResults, AStoredResultComesBackWholeNonFiniteNumbersIncluded) {
  Store store;
  const double inf = std::numeric_limits<double>::infinity();
  {
    MistakeResults results = store.open();
    results.remember("values", failure(Verdict::kWrongAnswer, "value", json::array({1.5, inf, -inf, NAN})));
    results.remember("draws", failure(Verdict::kWrongAnswer, "distribution", json::array({3, 0, 7})));
    results.remember("passed", failure(Verdict::kAccepted, "", nullptr));
    results.save();
  }
  MistakeResults again = store.open();
  std::optional<TestResult> values = again.find("values");
  ASSERT_TRUE(values);
  EXPECT_EQ(values->verdict, Verdict::kWrongAnswer);
  EXPECT_EQ(values->failure_kind, "value");
  ASSERT_EQ(values->returned.size(), 4u);
  EXPECT_EQ(values->returned[0].get<double>(), 1.5);
  EXPECT_EQ(values->returned[1].get<double>(), inf);
  EXPECT_EQ(values->returned[2].get<double>(), -inf);
  EXPECT_TRUE(std::isnan(values->returned[3].get<double>()));
  std::optional<TestResult> draws = again.find("draws");
  ASSERT_TRUE(draws);
  EXPECT_EQ(draws->returned, json::array({3, 0, 7}));
  EXPECT_TRUE(draws->returned[0].is_number_integer());
  ASSERT_TRUE(again.find("passed"));
  EXPECT_EQ(again.find("passed")->verdict, Verdict::kAccepted);
  EXPECT_FALSE(again.find("unknown"));
}

TEST(MistakeResults, TimeAndMemoryLimitsAndHugeValuesAreNotStored) {
  Store store;
  {
    MistakeResults results = store.open();
    results.remember("slow", failure(Verdict::kTimeLimitExceeded, "timeout", nullptr));
    results.remember("memory", failure(Verdict::kMemoryLimitExceeded, "memory", nullptr));
    results.remember(
        "huge", failure(Verdict::kWrongAnswer, "value", std::vector<double>(MistakeResults::kMaxStoredBytes / 4, 0.1)));
    results.remember("kept", failure(Verdict::kRuntimeError, "signal:11", nullptr));
    results.save();
  }
  MistakeResults again = store.open();
  EXPECT_FALSE(again.find("slow"));
  EXPECT_FALSE(again.find("memory"));
  EXPECT_FALSE(again.find("huge"));
  EXPECT_TRUE(again.find("kept"));
}

TEST(MistakeResults, AnotherMistakeOrProblemKeySeesNothingAndABrokenStoreIsEmpty) {
  Store store;
  {
    MistakeResults results = store.open();
    results.remember("case", failure(Verdict::kWrongAnswer, "no_throw", 1.0));
    results.save();
  }
  EXPECT_TRUE(store.open().find("case"));
  EXPECT_FALSE(store.open("/cache/m-2").find("case"));
  EXPECT_FALSE(store.open("/cache/m-1", "changed problem").find("case"));
  for (const fs::directory_entry& entry : fs::directory_iterator(store.dir / "results"))
    std::ofstream(entry.path(), std::ios::trunc) << "not cbor";
  EXPECT_FALSE(store.open().find("case"));
}

// The draws fixture with a catalog of one known mistake.
struct Scratch {
  Scratch() : root(testing::scratch_root("draws", "mistake_results")) {
    std::ofstream(root / "solutions/draws/solutions.yaml") << R"(reference: reference.hpp
wrong:
  - file: wrong/probs_unnormalized.hpp
    verdict: wrong_answer
    mistake: the weights are never divided by their sum
)";
    env = {"JUDGE_ROOT=" + root.string(), "JUDGE_CACHE_DIR=" + (root / "cache").string(),
           "JUDGE_WORKSPACE=" + (root / "workspace").string()};
  }
  // The known mistake again, as a learner's file of other bytes each time
  // (so that no cached verdict answers it).
  testing::JudgeRun judge_edited_mistake(int edit) const {
    fs::path mine = root / "mine.hpp";
    fs::copy_file(root / "solutions/draws/wrong/probs_unnormalized.hpp", mine, fs::copy_options::overwrite_existing);
    std::ofstream(mine, std::ios::app) << "// edit " << edit << "\n";
    return testing::run_judge({"run", "draws", "--solution", mine.string()}, env);
  }
  std::vector<fs::path> stores() const {
    std::vector<fs::path> found;
    for (const fs::directory_entry& entry : fs::directory_iterator(root / "cache/results"))
      if (entry.path().filename().string().rfind("mistake-", 0) == 0) found.push_back(entry.path());
    return found;
  }
  fs::path root;
  std::vector<std::string> env;
};

TEST(MistakeResults, ASecondWrongRunTakesItsHintFromTheStoreUntilTheProblemChanges) {
  Scratch scratch;
  const std::string hint = "the weights are never divided by their sum";
  testing::JudgeRun first = scratch.judge_edited_mistake(1);
  EXPECT_EQ(first.status, 1) << first.err;
  EXPECT_NE(first.out.find(hint), std::string::npos) << first.out;
  std::vector<fs::path> stores = scratch.stores();
  ASSERT_EQ(stores.size(), 1u);

  // Make the stored mistake pass everything: a hint read from the store
  // can no longer name it, while a mistake run again would.
  std::optional<std::string> bytes = read_file(stores[0].string());
  ASSERT_TRUE(bytes);
  json stored = json::from_cbor(*bytes);
  ASSERT_FALSE(stored.empty());
  for (auto& [name, entry] : stored.items())
    entry = {{"verdict", "accepted"}, {"failure_kind", ""}, {"returned", nullptr}};
  std::vector<std::uint8_t> forged = json::to_cbor(stored);
  std::ofstream(stores[0], std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(forged.data()), static_cast<std::streamsize>(forged.size()));
  testing::JudgeRun second = scratch.judge_edited_mistake(2);
  EXPECT_EQ(second.status, 1) << second.err;
  EXPECT_EQ(second.out.find(hint), std::string::npos) << "the known mistake was run again: " << second.out;

  // Another case file is another problem: the store no longer applies.
  std::ofstream(scratch.root / "problems/draws/hidden/cases.yaml", std::ios::app) << "# changed\n";
  testing::JudgeRun third = scratch.judge_edited_mistake(3);
  EXPECT_NE(third.out.find(hint), std::string::npos) << third.out;
}

// A known mistake that cannot be compared (here: it does not build) cuts
// the search short: the run says so and why, in the terminal and in JSON,
// still names the mistakes it could compare, and is not cached, so the
// next run searches again.
TEST(MistakeResults, ASearchCutShortSaysWhyAndIsNotCached) {
  Scratch scratch;
  std::ofstream(scratch.root / "solutions/draws/wrong/does_not_build.hpp") << "this is not C++\n";
  std::ofstream(scratch.root / "solutions/draws/solutions.yaml", std::ios::app)
      << "  - file: wrong/does_not_build.hpp\n    verdict: wrong_answer\n    mistake: never compared\n";
  testing::JudgeRun first = scratch.judge_edited_mistake(1);
  EXPECT_EQ(first.status, 1) << first.err;
  EXPECT_NE(first.out.find("the weights are never divided by their sum"), std::string::npos) << first.out;
  EXPECT_NE(first.out.find("hints cut short:"), std::string::npos) << first.out;
  EXPECT_NE(first.out.find("did not build); the next run searches again"), std::string::npos) << first.out;

  fs::path mine = scratch.root / "mine.hpp";  // the file judged first, unchanged
  testing::JudgeRun again =
      testing::run_judge({"run", "draws", "--solution", mine.string(), "--format", "json"}, scratch.env);
  EXPECT_EQ(again.status, 1) << again.err;
  json result = json::parse(again.out);
  EXPECT_NE(result.value("hints_cut_short", "").find("does_not_build.hpp did not build"), std::string::npos)
      << again.out;
  testing::JudgeRun third = testing::run_judge({"run", "draws", "--solution", mine.string()}, scratch.env);
  EXPECT_EQ(third.out.find("the result comes from the cache"), std::string::npos)
      << "a search cut short is not cached: " << third.out;
}

}  // namespace
}  // namespace judge
