// judge_solution: the pipeline from solution file to ProblemResult.
#include "judging.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <future>
#include <map>

#include "build.hpp"
#include "case_scheduler.hpp"
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

  CaseRunSetup setup;
  setup.learner_binary = learner.binary;
  setup.learner_limits = runner_limits_for(problem);
  if (request.sanitize) setup.learner_limits = sanitized_runner_limits(setup.learner_limits, problem);
  setup.reference_binary = reference.binary;
  setup.crash = CrashContext{learner.binary, fs::absolute(request.solution_file).lexically_normal().string(),
                             request.display_name};
  setup.sanitize = request.sanitize;
  setup.parallel_runners = request.parallel_runners ? request.parallel_runners : default_parallel_runners();
  std::vector<const TestCase*> cases = problem.cases();
  bool decided = false;
  run_cases(problem, cases, setup, [&](std::size_t index, TestResult& result) {
    if (!decided && result.verdict != Verdict::kAccepted) {
      outcome.verdict = result.verdict;
      decided = true;
      if (request.hints) {
        if (request.on_progress) request.on_progress("comparing with known mistakes");
        if (auto index_of_mistakes = load_solutions_index(paths, problem)) {
          TestCase materialized = *cases[index];
          materialized.input = materialize_input(cases[index]->input);
          HintFinder hints(paths, problem, *index_of_mistakes);
          if (auto hint = hints.find(materialized, result)) result.hint = *hint;
        }
      }
    }
    if (request.on_case) request.on_case(result);
    outcome.tests.push_back(std::move(result));
  });
  store_cached_result(paths, cache_key, outcome);
  return outcome;
}

}  // namespace judge
