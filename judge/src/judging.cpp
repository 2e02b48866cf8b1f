// judge_solution: the pipeline from solution file to ProblemResult.
#include "judging.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <future>
#include <map>

#include "build.hpp"
#include "checks.hpp"
#include "compare.hpp"
#include "runner_session.hpp"

namespace judge {
namespace fs = std::filesystem;
namespace {
// After this many cases time out, the rest are not run: each would cost a
// full time limit and the verdict is already decided.
constexpr int kMaxTimeouts = 3;

RunnerLimits limits_for(const Problem& problem) {
  RunnerLimits limits;
  limits.memory_bytes = static_cast<std::uint64_t>(problem.memory_mb) << 20;
  long total_ms = 0;
  for (const TestCase* test : problem.cases()) total_ms += test->time_ms;
  limits.cpu_seconds = static_cast<int>(total_ms / 1000) + 30;
  return limits;
}

// Answers reference requests, each once: expectations and distributions
// come from the reference solution run through the same harness.
class ReferenceOracle {
 public:
  ReferenceOracle(const Problem& problem, std::string binary) : problem_(problem), session_(std::move(binary), limits_for(problem)) {}

  nlohmann::json call(const std::string& op, const nlohmann::json& args) {
    std::string key = op + "\n" + args.dump();
    auto found = memo_.find(key);
    if (found != memo_.end()) return found->second;
    CallResult result = session_.call(op, args, std::max(problem_.time_ms * 10, 30000));
    if (result.outcome != CallResult::Outcome::kValue)
      throw JudgeFault{fmt::format("{}: the reference solution did not return a value for op '{}' on {} ({}{}{})",
                                   problem_.slug, op, brief(args, 4),
                                   result.detail, result.exception_type, result.what.empty() ? "" : ": " + result.what)};
    return memo_[key] = result.value;
  }

 private:
  const Problem& problem_;
  RunnerSession session_;
  std::map<std::string, nlohmann::json> memo_;
};
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
  BuildOutcome learner = build_runner(paths, problem, request.solution_file, request.display_name);
  BuildOutcome reference = reference_build.get();
  if (!learner.ok) {
    outcome.verdict = Verdict::kCompileError;
    outcome.message = learner.diagnostics;
    return outcome;
  }
  if (!reference.ok)
    throw JudgeFault{fmt::format("{}: the reference solution does not compile:\n{}", problem.slug, reference.diagnostics)};

  ReferenceOracle oracle(problem, reference.binary);
  RunnerSession session(learner.binary, limits_for(problem));
  int timeouts = 0;
  bool decided = false;
  for (const TestCase* test : problem.cases()) {
    TestResult result;
    if (timeouts >= kMaxTimeouts) {
      result = start_result(*test);
      result.verdict = Verdict::kTimeLimitExceeded;
      result.message = fmt::format("not run: {} earlier cases exceeded their time limit", timeouts);
    } else {
      CheckContext context{problem, *test, session,
                           [&](const std::string& op, const nlohmann::json& args) { return oracle.call(op, args); }};
      result = find_checker(test->check)->run(context);
      if (result.verdict == Verdict::kTimeLimitExceeded) ++timeouts;
    }
    if (!decided && result.verdict != Verdict::kAccepted) {
      outcome.verdict = result.verdict;
      decided = true;
    }
    if (request.on_case) request.on_case(result);
    outcome.tests.push_back(std::move(result));
  }
  return outcome;
}

}  // namespace judge
