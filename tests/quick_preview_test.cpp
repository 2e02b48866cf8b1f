// The quick preview (judging/quick_preview.hpp) on the draws fixture, with
// solutions that behave one way at -Og and another at -O2
// (tests/fixtures/preview): the preview judges the few-call cases on an -Og
// runner in judging order, the verdict comes from the -O2 runner alone, and
// stop() ends a case in progress at once and reports nothing after.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <fstream>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "check/registry.hpp"
#include "fixture_files.hpp"
#include "judging/judging.hpp"
#include "judging/quick_preview.hpp"
#include "package/layout.hpp"
#include "scratch_root.hpp"
#include "util/worker_pool.hpp"

namespace judge {
namespace {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// A scratch root of the draws fixture, its problem and its reference's
// build; results the preview reports, as they come.
struct PreviewTest : ::testing::Test {
  PreviewTest()
      : root("draws", "quick_preview_"),
        paths(Paths::under_root(root.dir().string())),
        problem(load_problem(package_of(paths, "draws"), checker_case_rules())) {
    std::string reference = package_of(paths, "draws").reference;
    reference_build = std::async(std::launch::async, [this, reference] {
                        return build_runner(paths, problem, reference, "reference solution");
                      }).share();
    // Built before any preview starts: a preview waits only for a cached one.
    reference_build.wait();
  }

  JudgeRequest request_for(const std::string& fixture) const {
    JudgeRequest request;
    request.solution_file = testing::fixture_file("preview/" + fixture);
    request.display_name = fixture;
    request.hints = false;
    request.use_result_cache = false;
    return request;
  }

  std::unique_ptr<QuickPreview> preview(const JudgeRequest& request) {
    return std::make_unique<QuickPreview>(paths, problem, request, reference_build, [this](const TestResult& result) {
      std::lock_guard<std::mutex> lock(mutex);
      reported.push_back(result);
      arrived.notify_all();
    });
  }

  // The names of the few-call cases, in the order the judge starts cases.
  std::vector<std::string> few_call_cases() const {
    std::vector<const TestCase*> cases = problem.cases();
    std::vector<CheckCost> costs;
    for (const TestCase* test : cases) costs.push_back(cost_of(*test));
    std::vector<std::string> names;
    for (std::size_t index : judging_order(cases, costs))
      if (costs[index] == CheckCost::kFewCalls) names.push_back(cases[index]->name);
    return names;
  }

  testing::ScratchRoot root;
  Paths paths;
  Problem problem;
  std::shared_future<BuildOutcome> reference_build;
  std::mutex mutex;
  std::condition_variable arrived;
  std::vector<TestResult> reported;
};

TEST_F(PreviewTest, JudgesTheFewCallCasesOnAnOgRunnerAndTheVerdictIsTheO2Runners) {
  JudgeRequest request = request_for("unnormalized_at_Og.hpp");
  preview(request)->finish();
  std::vector<std::string> expected = few_call_cases();
  ASSERT_GE(expected.size(), 2u) << "the fixture has too few cheap cases to tell anything";
  ASSERT_EQ(reported.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(reported[i].name, expected[i]);
    EXPECT_EQ(reported[i].verdict, Verdict::kWrongAnswer) << reported[i].name << ": " << reported[i].message;
  }
  ProblemResult result = judge_solution(paths, problem, request);
  EXPECT_EQ(result.verdict, Verdict::kAccepted) << "the -O2 runner decides";
  for (const TestResult& test : result.tests) EXPECT_EQ(test.verdict, Verdict::kAccepted) << test.name;
}

TEST_F(PreviewTest, StopEndsACaseInProgressAndNothingIsReportedAfter) {
  JudgeRequest request = request_for("hangs_on_three_at_Og.hpp");
  std::unique_ptr<QuickPreview> running = preview(request);
  {
    // The two-logit sample passes; the next case, three logits, hangs.
    std::unique_lock<std::mutex> lock(mutex);
    ASSERT_TRUE(arrived.wait_for(lock, std::chrono::seconds(120), [&] { return !reported.empty(); }));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  auto start = Clock::now();
  running->stop();
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  // The hanging call's limit is the case's 2 s times kPreviewTimeScale.
  EXPECT_LT(seconds, 4.0) << "stop() waited for the case's time limit";
  ASSERT_EQ(reported.size(), 1u) << reported.back().name << " was reported after stop()";
  EXPECT_EQ(reported[0].verdict, Verdict::kAccepted) << reported[0].message;
  ProblemResult result = judge_solution(paths, problem, request);
  EXPECT_EQ(result.verdict, Verdict::kAccepted) << "the -O2 runner never hangs";
}

TEST_F(PreviewTest, ASolutionThatDoesNotCompileIsPreviewedAsNothing) {
  fs::path broken = root.dir() / "broken.hpp";
  std::ofstream(broken) << "inline std::vector<double> softmax_probs(const std::vector<double>& logits) { return }\n";
  JudgeRequest request = request_for("unnormalized_at_Og.hpp");
  request.solution_file = broken.string();
  preview(request)->finish();
  EXPECT_TRUE(reported.empty());
}

// A copy of `request`'s file no runner in the cache was built from.
void judge_a_fresh_copy(const fs::path& dir, JudgeRequest* request) {
  static int copies = 0;
  fs::path copy = dir / ("fresh_copy_" + std::to_string(++copies) + ".hpp");
  std::ifstream original(request->solution_file);
  std::ofstream(copy) << original.rdbuf() << "// " << Clock::now().time_since_epoch().count() << "\n";
  request->solution_file = copy.string();
}

TEST_F(PreviewTest, WithAPreviewEveryCaseStillComesFromTheO2Runner) {
  JudgeRequest request = request_for("unnormalized_at_Og.hpp");
  judge_a_fresh_copy(root.dir(), &request);
  std::vector<std::string> previewed, finished;
  std::vector<Verdict> verdicts;
  request.on_preview = [&](const TestResult& result) { previewed.push_back(result.name); };
  request.on_case = [&](const TestResult& result) {
    finished.push_back(result.name);
    verdicts.push_back(result.verdict);
  };
  ProblemResult result = judge_solution(paths, problem, request);
  EXPECT_EQ(result.verdict, Verdict::kAccepted);
  EXPECT_EQ(finished.size(), problem.cases().size()) << "the -O2 runner judges every case";
  for (Verdict verdict : verdicts) EXPECT_EQ(verdict, Verdict::kAccepted) << "an -Og result reached on_case";
  EXPECT_LE(previewed.size(), few_call_cases().size());
}

TEST(WantsPreview, OnlyForAReportThatShowsItWithACoreToSpare) {
  JudgeRequest request;
  EXPECT_FALSE(wants_preview(request)) << "nobody shows it";
  request.on_preview = [](const TestResult&) {};
  EXPECT_EQ(wants_preview(request), hardware_workers() >= 2);
  JudgeRequest one_runner = request;
  one_runner.parallel_runners = 1;
  EXPECT_FALSE(wants_preview(one_runner));
  JudgeRequest two_runners = request;
  two_runners.parallel_runners = 2;
  EXPECT_EQ(wants_preview(two_runners), hardware_workers() >= 2);
  JudgeRequest sanitized = request;
  sanitized.sanitize = true;
  EXPECT_FALSE(wants_preview(sanitized));
}
}  // namespace
}  // namespace judge
