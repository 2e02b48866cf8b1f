// End to end through judge_solution on the real temperature problem, with
// hostile and broken solutions from tests/fixtures/temperature: whatever the
// learner's code does, the verdict is the right failure and never accepted.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <unistd.h>

#include "check/checker.hpp"
#include "check/registry.hpp"
#include "fixture_files.hpp"
#include "judging/judging.hpp"
#include "package/problem.hpp"
#include "sandbox/limits.hpp"
#include "sandbox/runner_cgroup.hpp"
#include "skip_here.hpp"
#include "util/paths.hpp"

namespace judge {
namespace {
namespace fs = std::filesystem;

const Paths& source_paths() {
  static const Paths paths = Paths::under_root(JUDGE_SOURCE_DIR);
  return paths;
}

const Problem& temperature() {
  static const Problem problem = load_problem(package_of(source_paths(), "temperature"), checker_case_rules());
  return problem;
}

// The temperature problem with every case limited to `time_ms` (fast tests
// of timeouts), optionally only its first `max_cases` cases (0: all).
Problem fast_temperature(int time_ms, std::size_t max_cases) {
  Problem problem = temperature();
  problem.time_ms = time_ms;
  if (max_cases > 0) {
    if (problem.samples.size() > max_cases) problem.samples.resize(max_cases);
    problem.hidden.resize(std::min(problem.hidden.size(), max_cases - problem.samples.size()));
  }
  for (TestCase& test : problem.samples) test.time_ms = time_ms;
  for (TestCase& test : problem.hidden) test.time_ms = time_ms;
  return problem;
}

std::string fixture(const std::string& name) { return testing::fixture_file("temperature/" + name); }

ProblemResult judge_fixture(const std::string& name, int time_ms = 300, std::size_t max_cases = 0,
                            unsigned parallel_runners = 0) {
  JudgeRequest request;
  request.parallel_runners = parallel_runners;
  request.solution_file = fixture(name);
  request.display_name = "fixtures/temperature/" + name;
  request.use_result_cache = false;  // the problem is changed in memory; judge for real
  return judge_solution(source_paths(), fast_temperature(time_ms, max_cases), request);
}

const TestResult* first_failure(const ProblemResult& result) {
  for (const TestResult& test : result.tests)
    if (test.verdict != Verdict::kAccepted) return &test;
  return nullptr;
}

struct HostileCase {
  const char* fixture;
  Verdict verdict;
  std::string message;  // a substring of the first failing case's message
  // Generous unless the case is about timeouts: a loaded machine must not
  // turn a crash into a timeout.
  int time_ms = 20000;
  // The first sample decides; three cases also show that a runner that died
  // is restarted for the next case and fails it again.
  std::size_t max_cases = 3;
};

void PrintTo(const HostileCase& c, std::ostream* out) { *out << c.fixture; }

class HostileSolution : public ::testing::TestWithParam<HostileCase> {};

TEST_P(HostileSolution, GetsItsVerdictFromTheFirstFailingCase) {
  const HostileCase& c = GetParam();
  ProblemResult result = judge_fixture(c.fixture, c.time_ms, c.max_cases);
  EXPECT_EQ(verdict_name(result.verdict), verdict_name(c.verdict)) << result.message;
  const TestResult* failure = first_failure(result);
  ASSERT_NE(failure, nullptr) << "no case failed";
  EXPECT_EQ(failure->verdict, result.verdict) << "the problem's verdict is its first failing case's";
  EXPECT_EQ(failure->name, "example_t1") << "the first sample already fails";
  EXPECT_NE(failure->message.find(c.message), std::string::npos)
      << "message: " << failure->message << "\nexpected to contain: " << c.message;
  EXPECT_EQ(result.tests.size(), c.max_cases);
  for (const TestResult& test : result.tests) EXPECT_NE(test.verdict, Verdict::kAccepted) << test.name << " passed";
}

const std::string kTimedOut = "no reply after 300 ms of CPU time, the time limit of this case; the runner was killed";
const std::string kAsleep =
    "no reply after 600 ms asleep or blocked, 2 times the time limit of this case: it slept or waited; the runner was "
    "killed";

INSTANTIATE_TEST_SUITE_P(
    Temperature, HostileSolution,
    ::testing::Values(
        HostileCase{"infinite_loop.hpp", Verdict::kTimeLimitExceeded, kTimedOut, 300},
        HostileCase{"ignores_sigterm.hpp", Verdict::kTimeLimitExceeded, kTimedOut, 300},
        HostileCase{"segfault.hpp", Verdict::kRuntimeError,
                    "the runner was killed by SIGSEGV (Segmentation fault) before replying"},
        HostileCase{"aborts.hpp", Verdict::kRuntimeError, "the runner was killed by SIGABRT (Aborted) before replying"},
        HostileCase{"throws_int.hpp", Verdict::kRuntimeError, "uncaught exception int"},
        HostileCase{"throws_invalid_utf8.hpp", Verdict::kRuntimeError,
                    "uncaught exception std::runtime_error: caf\xc3\xa9 \\xff\\xfe"},
        HostileCase{"exits_in_call.hpp", Verdict::kRuntimeError, "the runner exited with status 0 before replying"},
        HostileCase{"quick_exits_in_call.hpp", Verdict::kRuntimeError,
                    "the runner exited with status 0 before replying"},
        HostileCase{"exits_in_static_init.hpp", Verdict::kRuntimeError,
                    "the runner exited with status 0 before replying"},
        HostileCase{"exits_in_static_object.hpp", Verdict::kRuntimeError,
                    "the runner exited with status 0 before replying"},
        HostileCase{"prints_fake_verdicts_wrong.hpp", Verdict::kWrongAnswer,
                    "index 0: expected 0.6590011389, got 0.3333333333"},
        HostileCase{"writes_fake_frames.hpp", Verdict::kRuntimeError,
                    "malformed reply: something other than the harness wrote to the judge's channel"},
        HostileCase{"closes_descriptors.hpp", Verdict::kRuntimeError, "before replying"}),
    [](const ::testing::TestParamInfo<HostileCase>& info) {
      std::string name = fs::path(info.param.fixture).stem().string();
      return name;
    });

// The memory limit, both ways a machine may enforce it.
class MemoryHog : public ::testing::Test {
 protected:
  void TearDown() override { unsetenv(kNoMemoryCgroupVariable); }
};

TEST_F(MemoryHog, IsKilledByTheKernelUnderARunnerCgroup) {
  if (!cgroup_support().available) JUDGE_SKIP() << "no memory cgroup here: " << cgroup_support().missing;
  ProblemResult result = judge_fixture("memory_hog.hpp", 20000, 3);
  ASSERT_EQ(result.tests.size(), 3u);
  for (const TestResult& test : result.tests) {
    EXPECT_EQ(verdict_name(test.verdict), "memory_limit_exceeded") << test.message;
    EXPECT_EQ(test.message, "the kernel killed the runner at its memory limit (the problem allows 256 MiB)");
  }
  // Every runner's cgroup is gone with it.
  for (const auto& entry : fs::directory_iterator(cgroup_support().parent.directory))
    EXPECT_NE(entry.path().filename().string().rfind(fmt::format("judge-{}-", getpid()), 0), 0u)
        << entry.path() << " was left behind";
}

TEST_F(MemoryHog, GetsBadAllocUnderAnAddressSpaceLimit) {
  setenv(kNoMemoryCgroupVariable, "1", 1);
  ProblemResult result = judge_fixture("memory_hog.hpp", 20000, 3);
  ASSERT_EQ(result.tests.size(), 3u);
  for (const TestResult& test : result.tests) {
    EXPECT_EQ(verdict_name(test.verdict), "memory_limit_exceeded") << test.message;
    EXPECT_EQ(test.message, "std::bad_alloc thrown: out of memory under the 256 MiB limit");
  }
}

TEST(HostileSolutionTimeouts, StopRunningCasesAfterThreeTimeouts) {
  ProblemResult result = judge_fixture("infinite_loop.hpp", 300, 0, /*parallel_runners=*/1);
  ASSERT_EQ(result.tests.size(), temperature().cases().size());
  for (std::size_t i = 0; i < result.tests.size(); ++i) {
    EXPECT_EQ(result.tests[i].verdict, Verdict::kTimeLimitExceeded) << result.tests[i].name;
    if (i < 3)
      EXPECT_EQ(result.tests[i].message, kTimedOut);
    else
      EXPECT_EQ(result.tests[i].message, "not run: 3 other cases exceeded their time limit");
  }
}

TEST(HostileSolutionTimeouts, WithTwoRunnersAtMostOneMoreCaseRuns) {
  // Both runners may be inside a case when the third timeout comes.
  ProblemResult result = judge_fixture("infinite_loop.hpp", 300, 0, /*parallel_runners=*/2);
  ASSERT_EQ(result.tests.size(), temperature().cases().size());
  int timed_out = 0, not_run = 0;
  for (const TestResult& test : result.tests) {
    EXPECT_EQ(test.verdict, Verdict::kTimeLimitExceeded) << test.name;
    if (test.message == kTimedOut) ++timed_out;
    if (test.message.rfind("not run: ", 0) == 0) ++not_run;
  }
  EXPECT_GE(timed_out, 3);
  EXPECT_LE(timed_out, 4);
  EXPECT_EQ(timed_out + not_run, static_cast<int>(result.tests.size()));
}

// A runner that ends or hangs before main() would do so again on every
// restart: the case it failed in is judged, the rest are not run.
struct NeverReady {
  const char* fixture;
  Verdict verdict;
  std::string message;  // a substring of the first failing case's message
  const char* how;      // in the message of the cases not run
};

void PrintTo(const NeverReady& c, std::ostream* out) { *out << c.fixture; }

class RunnerNeverReady : public ::testing::TestWithParam<NeverReady> {};

TEST_P(RunnerNeverReady, FailsOneCasePerRunnerAndRunsNoOther) {
  const NeverReady& c = GetParam();
  for (unsigned runners : {1u, 2u}) {
    ProblemResult result = judge_fixture(c.fixture, 300, 0, runners);
    ASSERT_EQ(result.tests.size(), temperature().cases().size());
    EXPECT_EQ(verdict_name(result.verdict), verdict_name(c.verdict)) << result.message;
    std::size_t judged = 0;
    for (const TestResult& test : result.tests) {
      EXPECT_EQ(verdict_name(test.verdict), verdict_name(c.verdict)) << test.name << ": " << test.message;
      if (test.message.rfind("not run: ", 0) == 0) {
        EXPECT_NE(test.message.find(fmt::format("your runner {} before it could serve any case", c.how)),
                  std::string::npos)
            << test.message;
        continue;
      }
      ++judged;
      EXPECT_NE(test.message.find(c.message), std::string::npos) << test.message;
      EXPECT_NE(test.message.find("it had not reached main() (static initialization)"), std::string::npos)
          << test.message;
    }
    EXPECT_GE(judged, 1u);
    EXPECT_LE(judged, runners) << "each runner fails at most the case it was starting for";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Temperature, RunnerNeverReady,
    ::testing::Values(NeverReady{"exits_in_static_init.hpp", Verdict::kRuntimeError,
                                 "the runner exited with status 0 before replying", "ended"},
                      NeverReady{"hangs_in_static_init.hpp", Verdict::kTimeLimitExceeded, kTimedOut, "hung"}),
    [](const ::testing::TestParamInfo<NeverReady>& info) { return fs::path(info.param.fixture).stem().string(); });

// The time a runner takes to reach main() is not its first call's: a loaded
// machine can take seconds to load a runner into its sandbox.
TEST(RunnerStart, TimeBeforeMainIsNotTheCallsTime) {
  // 1.2 s asleep before main(), 300 ms per call.
  for (unsigned runners : {1u, 2u}) {
    ProblemResult result = judge_fixture("slow_to_start.hpp", 300, 3, runners);
    EXPECT_EQ(verdict_name(result.verdict), "accepted")
        << runners << " runners: " << (first_failure(result) ? first_failure(result)->message : "");
  }
}

TEST(RunnerStart, ARunnerAsleepBeforeMainTimesOutAfterTheStartupGrace) {
  auto start = std::chrono::steady_clock::now();
  ProblemResult result = judge_fixture("sleeps_in_static_init.hpp", 300, 3, 1);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(result.tests.size(), 3u);
  EXPECT_EQ(verdict_name(result.verdict), "time_limit_exceeded") << result.message;
  EXPECT_NE(result.tests[0].message.find(kAsleep), std::string::npos) << result.tests[0].message;
  EXPECT_NE(result.tests[0].message.find("it had not reached main()"), std::string::npos) << result.tests[0].message;
  for (std::size_t i = 1; i < result.tests.size(); ++i)
    EXPECT_EQ(result.tests[i].message.rfind("not run: ", 0), 0u) << result.tests[i].message;
  EXPECT_GE(seconds, RunnerLimits{}.startup_grace_ms / 1000.0) << "it was waited for";
}

TEST(RunnerNeverReady, ACrashInACallIsNotAStartupFailure) {
  // The runner got ready, then crashed in the call: each case runs, on a
  // restarted runner.
  ProblemResult result = judge_fixture("segfault.hpp", 20000, 3, 1);
  ASSERT_EQ(result.tests.size(), 3u);
  for (const TestResult& test : result.tests) {
    EXPECT_EQ(test.message.rfind("not run: ", 0), std::string::npos) << test.message;
    EXPECT_EQ(test.message.find("static initialization"), std::string::npos) << test.message;
  }
}

TEST(ParallelRunners, ReportEveryCaseOnceWithTheSameVerdictsAndKeepTheCaseOrder) {
  // A solution wrong on some cases only: the verdicts do not depend on how
  // many runners judged the cases; every case is streamed once, as it
  // finishes, and the result keeps the problem's order.
  JudgeRequest request;
  request.solution_file =
      (fs::path(source_paths().solutions_dir) / "temperature" / "wrong" / "no_validation.hpp").string();
  request.display_name = "no_validation.hpp";
  request.use_result_cache = false;
  request.hints = false;
  std::vector<std::string> streamed;
  request.on_case = [&](const TestResult& test) { streamed.push_back(test.name); };
  request.parallel_runners = 1;
  ProblemResult one = judge_solution(source_paths(), temperature(), request);
  streamed.clear();
  request.parallel_runners = 3;
  ProblemResult three = judge_solution(source_paths(), temperature(), request);
  std::vector<const TestCase*> cases = temperature().cases();
  ASSERT_EQ(three.tests.size(), cases.size());
  ASSERT_EQ(one.tests.size(), cases.size());
  ASSERT_EQ(streamed.size(), cases.size());
  std::vector<std::string> names;
  for (const TestCase* test : cases) names.push_back(test->name);
  std::vector<std::string> streamed_sorted = streamed;
  std::sort(streamed_sorted.begin(), streamed_sorted.end());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(streamed_sorted, names) << "every case is reported once";
  bool some_pass = false, some_fail = false;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(three.tests[i].name, cases[i]->name) << "the result keeps the case order";
    EXPECT_EQ(verdict_name(three.tests[i].verdict), verdict_name(one.tests[i].verdict)) << cases[i]->name;
    EXPECT_EQ(three.tests[i].message, one.tests[i].message) << cases[i]->name;
    (three.tests[i].verdict == Verdict::kAccepted ? some_pass : some_fail) = true;
  }
  EXPECT_TRUE(some_pass && some_fail) << "the solution should pass some cases and fail others";
  EXPECT_EQ(three.verdict, one.verdict);
}

TEST(PrintingSolution, PrintingDoesNotChangeAnAcceptedVerdict) {
  ProblemResult result = judge_fixture("prints_fake_verdicts.hpp", 20000);
  EXPECT_EQ(verdict_name(result.verdict), "accepted");
  ASSERT_FALSE(result.tests.empty());
  for (const TestResult& test : result.tests) EXPECT_EQ(test.message, "") << test.name;
  EXPECT_NE(result.tests[0].output.find("FAKE-VERDICT"), std::string::npos)
      << "what the code printed is kept, for the learner to see";
}

long peak_rss_kb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

TEST(FloodingSolution, IsAcceptedAndTheJudgeStaysBounded) {
  long before = peak_rss_kb();
  ProblemResult result = judge_fixture("floods_output.hpp", 60000, /*max_cases=*/3);
  EXPECT_EQ(verdict_name(result.verdict), "accepted") << (first_failure(result) ? first_failure(result)->message : "");
  for (const TestResult& test : result.tests) EXPECT_LE(test.output.size(), 64u * 1024) << test.name;
  EXPECT_LT(peak_rss_kb() - before, 64 * 1024) << "600 MiB of output grew the judge's memory";
}

TEST(CompileErrors, NameTheLearnersFileAndLineAndHideSystemHeaders) {
  ProblemResult result = judge_fixture("compile_error.hpp");
  EXPECT_EQ(verdict_name(result.verdict), "compile_error");
  EXPECT_TRUE(result.tests.empty()) << "no case runs without a runner";
  EXPECT_NE(result.message.find("fixtures/temperature/compile_error.hpp:8:"), std::string::npos) << result.message;
  EXPECT_NE(result.message.find("error:"), std::string::npos) << result.message;
  EXPECT_EQ(result.message.find("/usr/include"), std::string::npos) << result.message;
  EXPECT_EQ(result.message.find(fixture("compile_error.hpp")), std::string::npos)
      << "the absolute path is replaced by the display name:\n"
      << result.message;
}

TEST(CompileErrors, AWrongSignatureShowsTheExpectedDeclarations) {
  for (const char* name : {"signature_float.hpp", "signature_by_value.hpp"}) {
    ProblemResult result = judge_fixture(name);
    EXPECT_EQ(verdict_name(result.verdict), "compile_error") << name;
    EXPECT_NE(result.message.find("The harness calls your code with exactly these declarations"), std::string::npos)
        << name << ":\n"
        << result.message;
    EXPECT_NE(result.message.find(temperature().signature), std::string::npos) << name << ":\n" << result.message;
    EXPECT_EQ(result.message.find("/usr/include"), std::string::npos) << name << ":\n" << result.message;
  }
}

TEST(CompileErrors, AMainLeftInTheSolutionIsExplainedWithoutTheLinkersPaths) {
  ProblemResult result = judge_fixture("defines_main.hpp");
  EXPECT_EQ(verdict_name(result.verdict), "compile_error");
  EXPECT_NE(result.message.find("fixtures/temperature/defines_main.hpp defines main()"), std::string::npos)
      << result.message;
  for (const char* raw : {"ld.gold", "/usr/bin/ld", "libjudge_harness", "scratch", "collect2", ".o:"})
    EXPECT_EQ(result.message.find(raw), std::string::npos) << raw << " in:\n" << result.message;
}

TEST(MissingSolution, IsTheJudgesFaultNotAVerdict) {
  JudgeRequest request;
  request.solution_file = fixture("does_not_exist.hpp");
  request.display_name = "does_not_exist.hpp";
  try {
    judge_solution(source_paths(), temperature(), request);
    FAIL() << "judged a missing file";
  } catch (const JudgeFault& fault) {
    EXPECT_EQ(fault.message, "does_not_exist.hpp: no such file");
  }
}

}  // namespace
}  // namespace judge
