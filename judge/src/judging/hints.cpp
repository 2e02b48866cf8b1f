// HintFinder: run the known-wrong solutions on a failed case and compare.
#include "judging/hints.hpp"

#include <fmt/format.h>

#include <cmath>
#include <future>

#include "build/build.hpp"
#include "check/checker.hpp"
#include "check/compare.hpp"
#include "check/reference_oracle.hpp"
#include "check/registry.hpp"
#include "check/stats.hpp"
#include "run/runner_session.hpp"
#include "sandbox/limits.hpp"
#include "util/errors.hpp"

namespace judge {

struct HintFinder::Runner {
  explicit Runner(std::string binary, const Problem& problem)
      : session(std::move(binary), limits_for(problem, /*sanitize=*/false)) {}
  RunnerSession session;
  std::map<std::string, TestResult> results;  // by case name
};

HintFinder::HintFinder(const Paths& paths, const Problem& problem, SolutionsIndex index)
    : paths_(paths), problem_(problem), index_(std::move(index)) {}

HintFinder::~HintFinder() = default;

namespace {
// Structural equality where numbers agree within the tolerance, and NaN is
// alike to NaN (unlike the judging rule: two wrong answers can share a NaN).
bool alike(const nlohmann::json& a, const nlohmann::json& b, const Tolerance& tolerance) {
  if (a.is_number() && b.is_number()) {
    double x = a.get<double>(), y = b.get<double>();
    return (std::isnan(x) && std::isnan(y)) || numbers_match(x, y, tolerance);
  }
  if (a.is_array() && b.is_array()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!alike(a[i], b[i], tolerance)) return false;
    return true;
  }
  if (a.is_object() && b.is_object()) {
    if (a.size() != b.size()) return false;
    for (const auto& [key, value] : a.items())
      if (!b.contains(key) || !alike(value, b[key], tolerance)) return false;
    return true;
  }
  return a == b;
}
}  // namespace

bool same_failure(const TestCase& test, const TestResult& a, const TestResult& b) {
  if (a.verdict == Verdict::kAccepted || b.verdict == Verdict::kAccepted) return false;
  if (a.failure_kind.empty() || a.failure_kind != b.failure_kind) return false;
  if (a.failure_kind == "value" || a.failure_kind == "no_throw") return alike(a.returned, b.returned, test.tolerance);
  if (a.failure_kind == "distribution") {
    if (!a.returned.is_array() || !b.returned.is_array()) return false;
    return same_distribution(a.returned.get<std::vector<std::int64_t>>(), b.returned.get<std::vector<std::int64_t>>());
  }
  return true;
}

void HintFinder::build_wrong_runners() {
  // Every wrong solution at once: on a fresh checkout this is the slow
  // part, later runs find them in the cache.
  std::vector<std::future<BuildOutcome>> builds;
  for (const KnownSolution& wrong : index_.wrong)
    builds.push_back(
        std::async(std::launch::async, [&] { return build_runner(paths_, problem_, wrong.file, wrong.display); }));
  for (std::size_t i = 0; i < builds.size(); ++i) {
    BuildOutcome built = builds[i].get();
    if (built.ok) runners_[index_.wrong[i].file] = std::make_unique<Runner>(built.binary, problem_);
  }
}

const TestResult* HintFinder::result_of(const KnownSolution& wrong, const TestCase& test) {
  auto found = runners_.find(wrong.file);
  if (found == runners_.end()) return nullptr;
  Runner& runner = *found->second;
  auto cached = runner.results.find(test.name);
  if (cached != runner.results.end()) return &cached->second;
  if (!oracle_) {
    BuildOutcome reference = build_runner(paths_, problem_, index_.reference, "reference solution");
    if (!reference.ok) return nullptr;
    oracle_ = std::make_unique<ReferenceOracle>(problem_, reference.binary);
  }
  CheckContext context{problem_, test, runner.session,
                       [&](const std::string& name, const nlohmann::json& args) { return oracle_->call(name, args); }};
  context.reference_call = [&](const Request& request) { return oracle_->fresh_call(request); };
  return &runner.results.emplace(test.name, find_checker(test.check)->run(context)).first->second;
}

std::optional<std::string> HintFinder::find(const TestCase& test, const TestResult& failure) {
  const Operation* op = problem_.find_op(test.op);
  if (!op || failure.failure_kind.empty() || failure.failure_kind == "timeout") return std::nullopt;
  try {
    if (runners_.empty()) build_wrong_runners();
    for (const KnownSolution& wrong : index_.wrong) {
      const TestResult* theirs = result_of(wrong, test);
      if (theirs && same_failure(test, failure, *theirs)) return wrong.note;
    }
  } catch (const JudgeFault&) {
    // A hint is a courtesy; never let it break judging.
  }
  return std::nullopt;
}

}  // namespace judge
