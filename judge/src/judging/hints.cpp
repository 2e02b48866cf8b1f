// HintFinder: run the known-wrong solutions on the judged cases and compare.
#include "judging/hints.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <future>
#include <set>

#include "check/checker.hpp"
#include "check/compare.hpp"
#include "check/registry.hpp"
#include "check/stats.hpp"
#include "compile/build_runner.hpp"
#include "judging/mistake_results.hpp"
#include "package/typed_values.hpp"
#include "run/runner_session.hpp"
#include "sandbox/limits.hpp"
#include "util/errors.hpp"
#include "util/worker_pool.hpp"

namespace judge {

struct HintFinder::Runner {
  Runner(const KnownSolution& solution, std::string binary, const Problem& problem, MistakeResults stored)
      : solution(solution),
        session(std::move(binary), limits_for(problem, /*sanitize=*/false)),
        stored(std::move(stored)) {}
  const KnownSolution& solution;
  RunnerSession session;                      // started at its first call: not at all when every result is stored
  std::map<std::string, TestResult> results;  // by case name
  MistakeResults stored;                      // its untimed results of earlier runs
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

bool is_histogram(const nlohmann::json& value) { return value.is_array() && !value.empty(); }

// Failures that say nothing about the mistake compared value by value: a
// case that ran out of time (or was never run) fails the same way whatever
// the code got wrong. (An untimed case that ran out of time is compared
// apart, with the mistakes that may be slow: compare_timeouts.)
bool comparable(const TestResult& result) {
  return result.verdict != Verdict::kAccepted && !result.failure_kind.empty() && result.failure_kind != "timeout";
}

// A failure that alone names its mistake: state shown in fresh runners
// (check/sequence.cpp), whose every answer the same mistake repeats.
bool names_its_mistake(const TestResult& result) { return result.failure_kind == "state"; }

bool timed(const TestCase& test) { return cost_of(test) == CheckCost::kTimed; }

// Too slow in a timed case, whichever way it showed: over the case's speed
// limit ("slow"), growing too fast ("growth"), or a call past the case's
// own time limit ("timeout").
bool too_slow(const TestResult& result) {
  return result.failure_kind == "slow" || result.failure_kind == "growth" || result.failure_kind == "timeout";
}

bool cheap(const TestCase& test) { return cost_of(test) == CheckCost::kFewCalls; }

// Keeps at most kCostlyFailuresCompared of the costly failed cases `costly`:
// the first of each op and check first (a sampler's mistake shows only in
// its own cases), then the first of the rest; the cheapest first by their
// time limits (a case on 131,072 tokens would cost every known mistake
// seconds), then in case order.
void failed_costly_to_compare(const std::vector<const TestCase*>& cases, std::vector<std::size_t>* costly) {
  std::stable_sort(costly->begin(), costly->end(),
                   [&](std::size_t a, std::size_t b) { return cases[a]->time_ms < cases[b]->time_ms; });
  std::vector<std::size_t> kept, rest;
  std::set<std::pair<std::string, std::string>> kinds;
  for (std::size_t i : *costly) (kinds.insert({cases[i]->op, cases[i]->check}).second ? kept : rest).push_back(i);
  kept.insert(kept.end(), rest.begin(), rest.end());
  if (kept.size() > kCostlyFailuresCompared) kept.resize(kCostlyFailuresCompared);
  *costly = std::move(kept);
}
}  // namespace

bool same_failure(const TestCase& test, const TestResult& a, const TestResult& b) {
  if (a.verdict == Verdict::kAccepted || b.verdict == Verdict::kAccepted) return false;
  if (a.failure_kind.empty() || a.failure_kind != b.failure_kind) return false;
  if (a.failure_kind == "value" || a.failure_kind == "no_throw" || a.failure_kind == "state" ||
      a.failure_kind == "state_across_cases")
    return alike(a.returned, b.returned, test.tolerance);
  if (a.failure_kind == "distribution" || a.failure_kind == "zero_probability") {
    // A histogram of draws, when the checker kept one: the two samplers
    // must draw alike (their generators may differ, so not token by token).
    if (!is_histogram(a.returned) || !is_histogram(b.returned)) return a.returned == b.returned;
    return same_distribution(a.returned.get<std::vector<std::int64_t>>(), b.returned.get<std::vector<std::int64_t>>());
  }
  // Exceptions of one type, one signal, nondeterminism, slowness: the kind
  // is all there is to compare.
  return true;
}

void HintFinder::build_wrong_runners() {
  // Every wrong solution at once: on a fresh checkout this is the slow
  // part, later runs find them in the cache.
  auto reference_build = std::async(
      std::launch::async, [&] { return build_runner(paths_, problem_, index_.reference, "reference solution"); });
  std::vector<std::future<BuildOutcome>> builds;
  for (const KnownSolution& wrong : index_.wrong)
    builds.push_back(
        std::async(std::launch::async, [&] { return build_runner(paths_, problem_, wrong.file, wrong.display); }));
  BuildOutcome reference = reference_build.get();
  if (reference.ok) {
    reference_binary_ = reference.binary;
  } else {
    oracle_failed_ = true;
    lose("the reference solution did not build");
  }
  const std::string problem_key = mistake_problem_key(problem_);
  for (std::size_t i = 0; i < builds.size(); ++i) {
    BuildOutcome built = builds[i].get();
    if (built.ok)
      runners_.push_back(
          std::make_unique<Runner>(index_.wrong[i], built.binary, problem_,
                                   MistakeResults(paths_, problem_key, built.binary, reference_binary_)));
    else
      lose(fmt::format("the known mistake {} did not build", index_.wrong[i].display));
  }
}

void HintFinder::lose(std::string why) {
  std::lock_guard<std::mutex> lock(lost_mutex_);
  lost_.push_back(std::move(why));
}

std::string HintFinder::cut_short() const {
  std::lock_guard<std::mutex> lock(lost_mutex_);
  if (lost_.empty()) return "";
  if (lost_.size() == 1) return lost_.front();
  return fmt::format("{} (and {} more comparisons not made)", lost_.front(), lost_.size() - 1);
}

nlohmann::json HintFinder::reference(const std::string& op, const nlohmann::json& args) {
  std::lock_guard<std::mutex> lock(oracle_mutex_);
  return oracle_->call(op, args);
}

const TestResult* HintFinder::result_of(Runner& wrong, const TestCase& test, const nlohmann::json& written_input,
                                        bool timing) {
  auto cached = wrong.results.find(test.name);
  if (cached != wrong.results.end()) return &cached->second;
  if (!timing)
    if (std::optional<TestResult> stored = wrong.stored.find(test.name))
      return &wrong.results.emplace(test.name, std::move(*stored)).first->second;
  {
    std::lock_guard<std::mutex> lock(oracle_mutex_);
    if (oracle_failed_) return nullptr;  // said once, by build_wrong_runners
    if (!oracle_) oracle_ = std::make_unique<ReferenceOracle>(problem_, reference_binary_);
  }
  CheckContext context{problem_, test, wrong.session,
                       [&](const std::string& op, const nlohmann::json& args) { return reference(op, args); }};
  context.reference_call = [&](const Request& request) {
    std::lock_guard<std::mutex> lock(oracle_mutex_);
    return oracle_->fresh_call(request);
  };
  context.written_input = &written_input;
  if (!timing) context.timing_off_reason = "speed is not compared while looking for a known mistake";
  for (int attempt = 1;; ++attempt) {
    try {
      TestResult result = find_checker(test.check)->run(context);
      if (!timing) wrong.stored.remember(test.name, result);
      return &wrong.results.emplace(test.name, std::move(result)).first->second;
    } catch (const JudgeFault& fault) {
      // Once more on a fresh runner: a fault of a busy moment (a runner
      // starved past the clock's backstop) seldom comes twice.
      wrong.session.stop();
      if (attempt < 2) continue;
      lose(fmt::format("the known mistake {} could not be run on case '{}': {}", wrong.solution.display, test.name,
                       fault.message));
      return nullptr;  // this comparison is lost, not the others
    }
  }
}

bool HintFinder::may_be_slow(const Runner& wrong, const std::string& op) const {
  if (wrong.solution.verdict == Verdict::kTimeLimitExceeded) return true;
  for (const TestCase* test : problem_.cases()) {
    auto result = wrong.results.find(test->name);
    if (test->op == op && result != wrong.results.end() && result->second.verdict != Verdict::kAccepted) return false;
  }
  return true;
}

CasesToCompare cases_to_compare(const std::vector<const TestCase*>& cases, const std::vector<TestResult>& results) {
  CasesToCompare chosen;
  std::vector<std::size_t> costly;
  for (std::size_t i = 0; i < cases.size() && i < results.size(); ++i) {
    if (results[i].not_run) continue;  // its failure is another case's
    if (results[i].failure_kind == "timeout" && !timed(*cases[i])) {
      if (chosen.timed_out.size() < kCostlyFailuresCompared) chosen.timed_out.push_back(i);
    } else if (results[i].failure_kind == "timeout") {  // a timed case: slowness, compared as the others are
      chosen.slow.push_back(i);
    } else if (results[i].verdict == Verdict::kAccepted) {
      if (cheap(*cases[i])) chosen.passed.push_back(i);
    } else if (comparable(results[i])) {
      bool slowness = timed(*cases[i]) && too_slow(results[i]);
      // A timed case's other failures (a wrong value on the largest
      // input) repeat what the cheaper cases show, at their greatest cost.
      if (timed(*cases[i]) && !slowness) continue;
      (slowness ? chosen.slow : cheap(*cases[i]) ? chosen.failed : costly).push_back(i);
    }
  }
  failed_costly_to_compare(cases, &costly);
  chosen.failed.insert(chosen.failed.end(), costly.begin(), costly.end());
  return chosen;
}

std::vector<Hint> rank_mistakes(std::vector<std::set<std::size_t>> explained, const std::vector<std::string>& notes,
                                const std::vector<std::string>& case_names, std::size_t compared,
                                const std::set<std::size_t>& conclusive) {
  // One failure alike among many is a coincidence (two different mistakes
  // can both put every draw on one token), not the learner's mistake.
  const std::size_t enough = std::min(kMinExplained, compared);
  for (std::set<std::size_t>& cases_of_w : explained) {
    bool names_it =
        std::any_of(cases_of_w.begin(), cases_of_w.end(), [&](std::size_t i) { return conclusive.count(i) > 0; });
    if (cases_of_w.size() < enough && !names_it) cases_of_w.clear();
  }
  std::vector<Hint> hints;
  std::set<std::size_t> covered;
  for (;;) {
    std::size_t best = explained.size(), best_new = 0;
    for (std::size_t w = 0; w < explained.size(); ++w) {
      std::size_t fresh = 0;
      for (std::size_t i : explained[w]) fresh += !covered.count(i);
      if (fresh > best_new) best = w, best_new = fresh;
    }
    if (best == explained.size()) break;
    Hint hint{notes[best], {}};
    for (std::size_t i : explained[best]) hint.cases.push_back(case_names[i]), covered.insert(i);
    hints.push_back(std::move(hint));
  }
  return hints;
}

void HintFinder::compare_untimed(const CasesToCompare& chosen, const std::vector<const TestCase*>& cases,
                                 const std::vector<TestCase>& expanded, const std::vector<TestResult>& results,
                                 Comparison* comparison) {
  for_each_parallel(runners_.size(), 0, [&](std::size_t w) {
    Runner& wrong = *runners_[w];
    // A mistake stated to be too slow returns right answers: it explains
    // only slowness, and running it on the large cases would cost seconds.
    if (wrong.solution.verdict == Verdict::kTimeLimitExceeded) return;
    for (std::size_t i : chosen.passed) {
      if (comparison->ruled_out[w].count(cases[i]->op)) continue;
      const TestResult* theirs = result_of(wrong, expanded[i], cases[i]->input, /*timing=*/false);
      if (theirs && theirs->verdict != Verdict::kAccepted && theirs->failure_kind != "timeout")
        comparison->ruled_out[w].insert(cases[i]->op);
    }
    for (std::size_t i : chosen.failed) {
      // State shown in fresh runners is compared even where a passed case
      // ruled the mistake out: with state kept between calls, which cases
      // pass depends on what ran before, in the learner's runner and in
      // the mistake's.
      if (comparison->ruled_out[w].count(cases[i]->op) && !names_its_mistake(results[i])) continue;
      const TestResult* theirs = result_of(wrong, expanded[i], cases[i]->input, /*timing=*/false);
      if (theirs && same_failure(expanded[i], results[i], *theirs)) comparison->explained[w].insert(i);
    }
  });
}

void HintFinder::compare_slowness(const CasesToCompare& chosen, const std::vector<const TestCase*>& cases,
                                  const std::vector<TestCase>& expanded, const std::vector<TestResult>& results,
                                  Comparison* comparison) {
  for (std::size_t w = 0; w < runners_.size(); ++w) {
    for (std::size_t i : chosen.slow) {
      if (comparison->ruled_out[w].count(cases[i]->op) || !may_be_slow(*runners_[w], cases[i]->op)) continue;
      // On fresh runners, as the judge times a learner: what the earlier
      // cases used of a runner's limits would count against this one.
      runners_[w]->session.stop();
      if (oracle_) oracle_->stop();
      const TestResult* theirs = result_of(*runners_[w], expanded[i], cases[i]->input, /*timing=*/true);
      if (theirs && too_slow(*theirs)) comparison->explained[w].insert(i);
    }
  }
}

void HintFinder::compare_timeouts(const CasesToCompare& chosen, const std::vector<const TestCase*>& cases,
                                  const std::vector<TestCase>& expanded, Comparison* comparison) {
  for (std::size_t w = 0; w < runners_.size(); ++w) {
    for (std::size_t i : chosen.timed_out) {
      if (comparison->ruled_out[w].count(cases[i]->op) || !may_be_slow(*runners_[w], cases[i]->op)) continue;
      // A mistake that never finishes the case costs its whole time limit,
      // every time: a time-out depends on the machine and is never stored.
      const TestResult* theirs = result_of(*runners_[w], expanded[i], cases[i]->input, /*timing=*/false);
      if (theirs && theirs->failure_kind == "timeout") comparison->explained[w].insert(i);
    }
  }
}

std::vector<Hint> HintFinder::explain(const std::vector<const TestCase*>& cases,
                                      const std::vector<TestResult>& results) {
  const CasesToCompare chosen = cases_to_compare(cases, results);
  if (chosen.failed.empty() && chosen.slow.empty() && chosen.timed_out.empty()) return {};
  std::vector<TestCase> expanded(cases.size());
  for (const std::vector<std::size_t>* list : {&chosen.passed, &chosen.failed, &chosen.slow, &chosen.timed_out})
    for (std::size_t i : *list) expanded[i] = with_inputs_expanded(*cases[i]);
  try {
    if (runners_.empty()) build_wrong_runners();
  } catch (const JudgeFault& fault) {
    lose(fmt::format("the known mistakes could not be built: {}", fault.message));
    return {};  // a hint is a courtesy; never let it break judging
  }
  Comparison comparison{std::vector<std::set<std::size_t>>(runners_.size()),
                        std::vector<std::set<std::string>>(runners_.size())};
  compare_untimed(chosen, cases, expanded, results, &comparison);
  compare_slowness(chosen, cases, expanded, results, &comparison);
  compare_timeouts(chosen, cases, expanded, &comparison);
  for (const std::unique_ptr<Runner>& runner : runners_) runner->stored.save();

  std::vector<std::string> notes, case_names;
  for (const std::unique_ptr<Runner>& runner : runners_) notes.push_back(runner->solution.note);
  for (const TestCase* test : cases) case_names.push_back(test->name);
  std::set<std::size_t> conclusive;
  for (std::size_t i : chosen.failed)
    if (names_its_mistake(results[i])) conclusive.insert(i);
  return rank_mistakes(std::move(comparison.explained), notes, case_names,
                       chosen.failed.size() + chosen.slow.size() + chosen.timed_out.size(), conclusive);
}

}  // namespace judge
