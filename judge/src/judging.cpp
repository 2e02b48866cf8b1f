// judge_solution: the pipeline from solution file to ProblemResult.
#include "judging.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <future>
#include <map>

#include "build.hpp"
#include "checks.hpp"
#include "compare.hpp"
#include "hints.hpp"
#include "solutions_index.hpp"
#include "reference_oracle.hpp"
#include "result_cache.hpp"
#include "runner_session.hpp"
#include "sanitizer_report.hpp"
#include "typed_values.hpp"

namespace judge {
namespace fs = std::filesystem;
namespace {
// After this many cases time out, the rest are not run: each would cost a
// full time limit and the verdict is already decided.
constexpr int kMaxTimeouts = 3;

}  // namespace

std::string reference_solution_path(const Paths& paths, const Problem& problem) {
  return (fs::path(paths.solutions_dir) / problem.slug / "reference.hpp").string();
}

ProblemResult judge_solution(const Paths& paths, const Problem& problem, const JudgeRequest& request) {
  ProblemResult outcome;
  outcome.problem = problem.slug;
  outcome.solution = request.display_name;
  if (!fs::is_regular_file(request.solution_file))
    throw JudgeFault{fmt::format("{}: no such file", request.display_name)};
  std::string reference_file = reference_solution_path(paths, problem);
  if (!fs::is_regular_file(reference_file))
    throw JudgeFault{fmt::format("{}: the problem has no reference solution", reference_file)};

  if (request.on_progress) request.on_progress("compiling");
  // The two builds are independent: use both cores.
  auto reference_build = std::async(std::launch::async, [&] {
    return build_runner(paths, problem, reference_file, "reference solution");
  });
  BuildOutcome learner =
      build_runner(paths, problem, request.solution_file, request.display_name, BuildOptions{request.sanitize});
  BuildOutcome reference = reference_build.get();
  if (!learner.ok) {
    outcome.verdict = Verdict::kCompileError;
    outcome.message = learner.diagnostics;
    return outcome;
  }
  if (!reference.ok)
    throw JudgeFault{fmt::format("{}: the reference solution does not compile:\n{}", problem.slug, reference.diagnostics)};

  std::string cache_key = result_cache_key(paths, problem, learner.binary, reference.binary, request.hints);
  if (request.use_result_cache) {
    if (std::optional<ProblemResult> cached = load_cached_result(paths, cache_key)) {
      cached->solution = request.display_name;
      cached->from_cache = true;
      if (request.on_case)
        for (const TestResult& test : cached->tests) request.on_case(test);
      return *cached;
    }
  }

  ReferenceOracle oracle(problem, reference.binary);
  RunnerLimits learner_limits = runner_limits_for(problem);
  if (request.sanitize) learner_limits = sanitized_runner_limits(learner_limits, problem);
  RunnerSession session(learner.binary, learner_limits);
  CrashContext crash{learner.binary, fs::absolute(request.solution_file).lexically_normal().string(),
                     request.display_name};
  int timeouts = 0;
  bool decided = false;
  for (const TestCase* listed : problem.cases()) {
    // The case with its generated inputs expanded, for checkers and hints.
    TestCase materialized = *listed;
    materialized.input = materialize_input(listed->input);
    const TestCase* test = &materialized;
    TestResult result;
    if (timeouts >= kMaxTimeouts) {
      result = start_result(*test);
      result.verdict = Verdict::kTimeLimitExceeded;
      result.message = fmt::format("not run: {} earlier cases exceeded their time limit", timeouts);
    } else {
      CheckContext context{problem, *test, session,
                           [&](const std::string& op, const nlohmann::json& args) { return oracle.call(op, args); }};
      if (request.sanitize)
        context.timing_off_reason = "speed is not compared with the reference under --sanitize (sanitized code runs 2 to 7 times slower)";
      else
        context.reference_cpu_ms = [&](const std::string& op, const nlohmann::json& args) { return oracle.cpu_ms(op, args); };
      result = find_checker(test->check)->run(context);
      explain_crash(crash, &result);
      if (result.verdict == Verdict::kTimeLimitExceeded) ++timeouts;
    }
    if (!decided && result.verdict != Verdict::kAccepted) {
      outcome.verdict = result.verdict;
      decided = true;
      if (request.hints) {
        if (request.on_progress) request.on_progress("comparing with known mistakes");
        if (auto index = load_solutions_index(paths, problem)) {
          HintFinder hints(paths, problem, *index);
          if (auto hint = hints.find(*test, result)) result.hint = *hint;
        }
      }
    }
    if (request.on_case) request.on_case(result);
    outcome.tests.push_back(std::move(result));
  }
  store_cached_result(paths, cache_key, outcome);
  return outcome;
}

}  // namespace judge
