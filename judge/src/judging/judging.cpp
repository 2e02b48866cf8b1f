// judge_solution: the pipeline from solution file to ProblemResult.
#include "judging/judging.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <filesystem>
#include <future>
#include <memory>
#include <optional>

#include "check/crash_report.hpp"
#include "compile/build_runner.hpp"
#include "compile/compile.hpp"
#include "judging/case_scheduler.hpp"
#include "judging/hints.hpp"
#include "judging/quick_preview.hpp"
#include "judging/result_cache.hpp"
#include "judging/shrink.hpp"
#include "package/layout.hpp"
#include "package/solutions_index.hpp"
#include "package/typed_values.hpp"
#include "sandbox/limits.hpp"
#include "util/errors.hpp"
#include "util/worker_pool.hpp"

namespace judge {
namespace fs = std::filesystem;
namespace {
CaseRunSetup case_setup(const Problem& problem, const JudgeRequest& request, const BuiltRunners& runners) {
  CaseRunSetup setup;
  setup.learner_binary = runners.learner.binary;
  setup.learner_limits = limits_for(problem, request.sanitize);
  setup.reference_binary = runners.reference.binary;
  setup.crash = CrashContext{runners.learner.binary, kCompiledSolutionPath, request.display_name, kCompileDirectory};
  setup.sanitize = request.sanitize;
  setup.parallel_runners = request.parallel_runners ? request.parallel_runners : default_parallel_runners();
  setup.max_timeouts = request.every_case ? 0 : kDefaultMaxTimeouts;
  return setup;
}

// Names the known mistakes that explain the failures of `outcome` (judged
// on `cases`), on the result and on each case they explain.
void add_hints(const Paths& paths, const Problem& problem, const std::vector<const TestCase*>& cases,
               ProblemResult* outcome) {
  std::optional<SolutionsIndex> index = load_solutions_index(problem.package);
  if (!index) return;
  HintFinder finder(paths, problem, *index);
  outcome->hints = finder.explain(cases, outcome->tests);
  outcome->hints_cut_short = finder.cut_short();
  for (const Hint& hint : outcome->hints)
    for (TestResult& test : outcome->tests)
      if (test.hint.empty() && std::find(hint.cases.begin(), hint.cases.end(), test.name) != hint.cases.end())
        test.hint = hint.mistake;
}
}  // namespace

bool wants_preview(const JudgeRequest& request) {
  // A preview needs a core of its own: not on a one-core machine, nor when
  // the caller asked for one runner at a time.
  return request.on_preview && !request.sanitize && hardware_workers() >= 2 && request.parallel_runners != 1;
}

BuiltRunners build_runners(const Paths& paths, const Problem& problem, const JudgeRequest& request) {
  if (!fs::is_regular_file(request.solution_file))
    throw JudgeFault{fmt::format("{}: no such file", request.display_name)};
  std::string reference_file = problem.package.reference;
  if (!fs::is_regular_file(reference_file))
    throw JudgeFault{fmt::format("{}: the problem has no reference solution", reference_file)};
  if (request.on_progress) request.on_progress("compiling");
  std::shared_future<BuildOutcome> reference_build =
      std::async(std::launch::async, [&] {
        return build_runner(paths, problem, reference_file, "reference solution");
      }).share();
  BuildOptions options;
  options.sanitize = request.sanitize;
  std::unique_ptr<QuickPreview> preview;
  if (wants_preview(request))
    options.on_compile = [&] {
      preview = std::make_unique<QuickPreview>(paths, problem, request, reference_build, request.on_preview);
    };
  BuiltRunners runners;
  runners.learner = build_runner(paths, problem, request.solution_file, request.display_name, options);
  if (preview) preview->stop();  // the -O2 runner judges from here on
  runners.reference = reference_build.get();
  if (runners.learner.ok && !runners.reference.ok)
    throw JudgeFault{
        fmt::format("{}: the reference solution does not compile:\n{}", problem.slug, runners.reference.diagnostics)};
  return runners;
}

namespace {
// The cached result of the same runners, cases and options, brought up to
// date with how this run names things; nullopt when there is none.
std::optional<ProblemResult> answer_from_cache(const Paths& paths, const Problem& problem, const JudgeRequest& request,
                                               const std::string& cache_key) {
  std::optional<ProblemResult> cached = load_cached_result(paths, cache_key);
  if (!cached) return std::nullopt;
  cached->solution = request.display_name;
  cached->tolerance = problem.tolerance;
  std::vector<const TestCase*> cases = problem.cases();
  for (std::size_t i = 0; i < cached->tests.size() && i < cases.size(); ++i)
    if (cached->tests[i].name == cases[i]->name) describe_failed_case(*cases[i], &cached->tests[i]);
  cached->from_cache = true;
  if (request.on_case)
    for (const TestResult& test : cached->tests) request.on_case(test);
  return cached;
}

// Every case judged, reported as it finishes, kept in case order.
std::vector<TestResult> judge_cases(const Problem& problem, const std::vector<const TestCase*>& cases,
                                    const JudgeRequest& request, const CaseRunSetup& setup) {
  std::vector<std::optional<TestResult>> judged(cases.size());
  run_cases(problem, cases, setup, [&](std::size_t index, TestResult& result) {
    if (request.on_case) request.on_case(result);
    judged[index] = std::move(result);
  });
  std::vector<TestResult> results;
  for (std::optional<TestResult>& result : judged) {
    if (!result) throw JudgeFault{fmt::format("{}: a case was never judged", problem.slug)};
    results.push_back(std::move(*result));
  }
  return results;
}

// The verdict: that of the first case in case order that failed.
Verdict decide(const std::vector<TestResult>& tests) {
  for (const TestResult& test : tests)
    if (test.verdict != Verdict::kAccepted) return test.verdict;
  return Verdict::kAccepted;
}

// A failed solution explained: the known mistakes it makes, and its
// failing inputs made small.
void explain_failure(const Paths& paths, const Problem& problem, const std::vector<const TestCase*>& cases,
                     const JudgeRequest& request, const CaseRunSetup& setup, ProblemResult* outcome) {
  if (request.hints) {
    if (request.on_progress) request.on_progress("comparing with known mistakes");
    add_hints(paths, problem, cases, outcome);
  }
  if (request.shrink_budget_ms > 0) {
    if (request.on_progress) request.on_progress("shrinking the failing input");
    // Runners of the same binaries and limits as the cases had: the
    // workers' runners ended with their threads.
    CaseRunners shrink_runners(problem, setup);
    outcome->shrunk = shrink_failures(problem, cases, outcome->tests, setup, shrink_runners, request.shrink_budget_ms);
  }
}
}  // namespace

ProblemResult judge_solution(const Paths& paths, const Problem& problem, const JudgeRequest& request) {
  ProblemResult outcome;
  outcome.problem = problem.slug;
  outcome.solution = request.display_name;
  outcome.tolerance = problem.tolerance;
  // Build.
  BuiltRunners runners = build_runners(paths, problem, request);
  if (!runners.learner.ok) {
    outcome.verdict = Verdict::kCompileError;
    outcome.message = runners.learner.diagnostics;
    return outcome;
  }
  const std::string cache_key = result_cache_key(problem, runners.learner.binary, runners.reference.binary,
                                                 request.hints, request.shrink_budget_ms, request.every_case);
  if (request.use_result_cache)
    if (std::optional<ProblemResult> cached = answer_from_cache(paths, problem, request, cache_key)) return *cached;
  // Run the cases, decide, explain.
  const std::vector<const TestCase*> cases = problem.cases();
  const CaseRunSetup setup = case_setup(problem, request, runners);
  outcome.tests = judge_cases(problem, cases, request, setup);
  outcome.verdict = decide(outcome.tests);
  if (outcome.verdict != Verdict::kAccepted) explain_failure(paths, problem, cases, request, setup, &outcome);
  // A search for hints cut short (a busy machine, a mistake that did not
  // build) is not the answer to keep: the next run searches again.
  if (outcome.hints_cut_short.empty()) store_cached_result(paths, cache_key, outcome);
  return outcome;
}

}  // namespace judge
