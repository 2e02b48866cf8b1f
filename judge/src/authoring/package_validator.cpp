// validate_problem: every check an instructor needs before publishing.
#include "authoring/package_validator.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <sstream>

#include "check/compare.hpp"
#include "check/reference_oracle.hpp"
#include "check/registry.hpp"
#include "compile/build_runner.hpp"
#include "judging/hints.hpp"
#include "judging/judging.hpp"
#include "package/layout.hpp"
#include "package/solutions_index.hpp"
#include "package/typed_values.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"
#include "util/text.hpp"

namespace judge {
namespace fs = std::filesystem;
namespace {
// Lines holding "TODO", each as "file:line: text".
std::vector<std::string> todo_lines(const std::string& path) {
  std::vector<std::string> found;
  std::istringstream in(read_file_or_empty(path));
  std::string line;
  for (int number = 1; std::getline(in, line); ++number)
    if (line.find("TODO") != std::string::npos) {
      std::size_t start = line.find_first_not_of(" \t#/");
      found.push_back(
          fmt::format("{}:{}: {}", display_path(path), number, start == std::string::npos ? line : line.substr(start)));
    }
  return found;
}

// The first case that failed, for "caught by" messages.
const TestResult* first_failure(const ProblemResult& result) {
  for (const TestResult& test : result.tests)
    if (test.verdict != Verdict::kAccepted) return &test;
  return nullptr;
}

std::string caught_by(const ProblemResult& result) {
  if (result.verdict == Verdict::kCompileError) return "at compile time";
  const TestResult* test = first_failure(result);
  if (!test) return "by no case";
  return fmt::format("by {} case {}: {}", test->hidden ? "hidden" : "sample", test->name, test->message);
}

class Validator {
 public:
  Validator(const Paths& paths, std::string slug, const std::function<void(const ValidationCheck&)>& on_check)
      : paths_(paths), slug_(std::move(slug)), on_check_(on_check) {
    report_.problem = slug_;
  }

  ValidationReport run() {
    try {
      run_checks();
    } catch (const SpecError& error) {
      add(false, "the problem files load", error.message);
    } catch (const JudgeFault& fault) {
      add(false, "the judge could run the problem", fault.message);
    }
    return report_;
  }

 private:
  void add(bool ok, std::string what, std::string detail = "") {
    report_.checks.push_back({ok, std::move(what), std::move(detail)});
    if (on_check_) on_check_(report_.checks.back());
  }

  ProblemResult judge_file(const std::string& file, const std::string& display, bool hints = false) {
    JudgeRequest request;
    request.solution_file = file;
    request.display_name = display;
    request.hints = hints;
    request.use_result_cache = false;  // validation measures and runs everything afresh
    return judge_solution(paths_, problem_, request);
  }

  void run_checks() {
    package_ = package_of(paths_, slug_);
    if (!fs::is_regular_file(package_.spec_file))
      return add(false, fmt::format("problems/{}/problem.yaml exists", slug_),
                 "create it (judge new " + slug_ + " scaffolds a whole package)");
    problem_ = load_problem(package_, checker_case_rules());
    add(true, fmt::format("spec and cases load: {} sample and {} hidden cases", problem_.samples.size(),
                          problem_.hidden.size()));
    if (problem_.samples.empty() || problem_.hidden.empty())
      add(false, "the problem has sample and hidden cases",
          "add at least one case under `samples:` in problem.yaml and one in a hidden/*.yaml file");
    for (const std::string& file : {package_.stub, package_.adapter})
      if (!fs::is_regular_file(file)) return add(false, display_path(file) + " exists", "create it");
    std::optional<SolutionsIndex> index = load_solutions_index(package_);
    if (!index)
      return add(false, fmt::format("solutions/{}/solutions.yaml exists", slug_),
                 "list the reference, correct alternatives and known-wrong solutions (docs/problem-format.md)");
    check_todos();
    check_reference(*index);
    check_stub(package_.stub);
    check_known_solutions(*index);
    check_expectations_and_margins(*index);
  }

  void check_todos() {
    // Every file of the package, in a stable order.
    std::vector<std::string> files = {package_.adapter};
    if (fs::is_regular_file(package_.learner_bindings)) files.push_back(package_.learner_bindings);
    for (const std::string& root : {package_.problem_dir, package_.solutions_dir})
      for (const auto& entry : fs::recursive_directory_iterator(root))
        if (entry.is_regular_file()) files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    std::string todo_text;
    std::size_t todos = 0;
    for (const std::string& file : files)
      for (const std::string& line : todo_lines(file)) todo_text += line + "\n", ++todos;
    add(todos == 0, todos == 0 ? "no TODO left in the package" : fmt::format("{} TODO(s) left to fill in", todos),
        todo_text);
  }

  void check_known_solutions(const SolutionsIndex& index) {
    for (const KnownSolution& solution : index.accepted) {
      ProblemResult result = judge_file(solution.file, solution.display);
      bool ok = result.verdict == Verdict::kAccepted;
      add(ok,
          fmt::format("{}: {}", solution.display,
                      ok ? "accepted" : verdict_name(result.verdict) + ", expected accepted"),
          ok ? "" : "failed " + caught_by(result));
      if (ok && solution.slowdown > 0) check_slow_alternative(solution, result);
    }
    check_slow_alternative_exists(index);
    if (index.wrong.empty())
      add(false, "the package has known-wrong solutions",
          "write one solution per pitfall the statement names under wrong/ and list it in solutions.yaml");
    for (const KnownSolution& solution : index.wrong) {
      ProblemResult result = judge_file(solution.file, solution.display, /*hints=*/true);
      bool ok = result.verdict == solution.verdict;
      add(ok, fmt::format("{}: {}{}, caught {}", solution.display, verdict_name(result.verdict),
                          ok ? " as stated" : ", expected " + verdict_name(solution.verdict), caught_by(result)));
      if (ok) check_own_hint(solution, result);
    }
    for (const KnownSolution& solution : index.hint_tests) check_hint_test(index, solution);
  }

  // A known mistake, judged as a learner's solution, must be named by the
  // first hint, unless none of its failures can be compared (a time limit on
  // a timed case).
  void check_own_hint(const KnownSolution& solution, const ProblemResult& result) {
    std::vector<std::string> named = hint_texts(result);
    bool ok = named.empty() ? !has_comparable_failure(result) : named.front() == solution.note;
    add(ok,
        fmt::format("{}: {}", solution.display,
                    named.empty() ? "no hint (no failure to compare)"
                    : ok          ? "its own mistake is the hint"
                                  : "another mistake is the hint"),
        ok              ? ""
        : named.empty() ? "it failed, yet no known mistake explains it: is the index's verdict or mistake stale?" +
                              cut_short_text(result)
                        : fmt::format("the first hint was \"{}\": add a case that tells the two mistakes apart{}",
                                      named.front(), cut_short_text(result)));
  }

  // Why the search for hints did not finish, as a last line of a failed
  // check's detail; empty when it finished.
  static std::string cut_short_text(const ProblemResult& result) {
    return result.hints_cut_short.empty() ? ""
                                          : "\n(the search for hints was cut short: " + result.hints_cut_short + ")";
  }

  void check_hint_test(const SolutionsIndex& index, const KnownSolution& solution) {
    ProblemResult result = judge_file(solution.file, solution.display, /*hints=*/true);
    std::vector<std::string> wanted;
    for (const std::string& file : solution.hints)
      for (const KnownSolution& wrong : index.wrong)
        if (wrong.file == file) wanted.push_back(wrong.note);
    std::vector<std::string> named = hint_texts(result);
    std::sort(wanted.begin(), wanted.end());
    std::sort(named.begin(), named.end());
    bool ok = result.verdict == solution.verdict && named == wanted;
    std::string detail;
    if (result.verdict != solution.verdict)
      detail += fmt::format("verdict {}, expected {}\n", verdict_name(result.verdict), verdict_name(solution.verdict));
    for (const std::string& text : named)
      if (!std::count(wanted.begin(), wanted.end(), text)) detail += "named, but should not be: " + text + "\n";
    for (const std::string& text : wanted)
      if (!std::count(named.begin(), named.end(), text)) detail += "not named: " + text + "\n";
    if (!ok && !result.hints_cut_short.empty()) detail += cut_short_text(result).substr(1) + "\n";
    add(ok,
        fmt::format("{}: {} with {} hint{}{}", solution.display, verdict_name(result.verdict), named.size(),
                    named.size() == 1 ? "" : "s", ok ? ", as stated" : ""),
        detail);
  }

  // An accepted `slowdown: N` alternative: at least N times the reference's
  // cost on the statistical case that costs the reference most (whole
  // cases: their many calls make the calls' cost show, not the round trips,
  // and one slow request on a busy machine moves a total less than a
  // maximum), and half of each time limit left on every case that does not
  // judge speed. The cost is the runner's CPU time where the kernel
  // measured it for both: wall time is the machine's load as much as the
  // code's, and two runs minutes apart meet different loads.
  void check_slow_alternative(const KnownSolution& solution, const ProblemResult& result) {
    const TestResult* costliest = nullptr;
    for (const TestResult& test : reference_result_.tests) {
      const TestCase* spec = find_case(test.name);
      if (spec && is_statistical(*spec) && (!costliest || test.time_ms > costliest->time_ms)) costliest = &test;
    }
    const TestResult* slow = nullptr;
    const TestResult* on_costliest = nullptr;
    double worst_share = 0;
    for (const TestResult& test : result.tests) {
      const TestCase* spec = find_case(test.name);
      if (!spec || is_timing_check(*spec)) continue;
      if (costliest && test.name == costliest->name) on_costliest = &test;
      double share = test.slowest_call_ms / spec->time_ms;
      if (share >= worst_share) worst_share = share, slow = &test;
    }
    if (!costliest || !on_costliest || !slow) return;
    const bool cpu = on_costliest->cpu_ms > 0 && costliest->cpu_ms > 0;
    double ratio =
        cpu ? on_costliest->cpu_ms / costliest->cpu_ms : on_costliest->time_ms / std::max(costliest->time_ms, 1e-3);
    add(ratio >= solution.slowdown,
        fmt::format("{}: {:.1f}x the reference's {} on {} (at least {:g}x stated)", solution.display, ratio,
                    cpu ? "CPU time" : "time", costliest->name, solution.slowdown),
        ratio >= solution.slowdown ? "" : "make it honestly slower, or state the slowdown it has");
    double headroom = 1 / std::max(worst_share, 1e-9);
    bool ok = headroom >= kSlowAlternativeHeadroom;
    add(ok,
        fmt::format("time: {}'s slowest request ({}) took {:.1f} ms of its {} ms limit: {:.1f}x headroom (at least "
                    "{:g}x required)",
                    solution.display, slow->name, slow->slowest_call_ms, find_case(slow->name)->time_ms, headroom,
                    kSlowAlternativeHeadroom),
        ok ? "" : "raise the case's time_ms, or make it cheaper: an honest slower solution must not time out");
  }

  void check_slow_alternative_exists(const SolutionsIndex& index) {
    bool statistical = false;
    for (const TestCase* test : problem_.cases()) statistical = statistical || is_statistical(*test);
    if (!statistical) return;
    bool found = false;
    for (const KnownSolution& solution : index.accepted) found = found || solution.slowdown > 0;
    add(found,
        found ? "an honest slower alternative (`slowdown:`) probes the time limits of the statistical cases"
              : "an accepted alternative slower per call (`slowdown:`) probes the time limits",
        found ? ""
              : "add a correct solution that is slower for honest reasons (std::seed_seq seeding, a "
                "std::discrete_distribution per call, ...) with `slowdown: 10` in solutions.yaml");
  }

  static std::vector<std::string> hint_texts(const ProblemResult& result) {
    std::vector<std::string> texts;
    for (const Hint& hint : result.hints) texts.push_back(hint.mistake);
    return texts;
  }

  // Whether the hint search compares any failure of `result` with the known
  // mistakes (hints.hpp: cases_to_compare, on the cases in result order).
  bool has_comparable_failure(const ProblemResult& result) const {
    std::map<std::string, const TestCase*> by_name;
    for (const TestCase* test : problem_.cases()) by_name[test->name] = test;
    std::vector<const TestCase*> cases;
    std::vector<TestResult> results;
    for (const TestResult& test : result.tests)
      if (by_name.count(test.name)) cases.push_back(by_name[test.name]), results.push_back(test);
    CasesToCompare chosen = cases_to_compare(cases, results);
    return !chosen.failed.empty() || !chosen.slow.empty() || !chosen.timed_out.empty();
  }

  void check_reference(const SolutionsIndex& index) {
    reference_result_ = judge_file(index.reference, display_path(index.reference));
    const ProblemResult& result = reference_result_;
    std::string failures;
    const TestResult* tightest = tightest_request(result);
    // A wall-clock time is the machine's as much as the reference's: a
    // request over its headroom is timed once more, and each case keeps the
    // faster of its two runs (the first call of a runner also waits for it
    // to start, which a loaded machine can stretch to a second).
    if (tightest && !has_headroom(*tightest)) {
      ProblemResult again = judge_file(index.reference, display_path(index.reference));
      for (TestResult& test : reference_result_.tests)
        for (const TestResult& second : again.tests)
          if (second.name == test.name && second.verdict == Verdict::kAccepted)
            test.slowest_call_ms = std::min(test.slowest_call_ms, second.slowest_call_ms);
      tightest = tightest_request(result);
    }
    for (const TestResult& test : result.tests)
      if (test.verdict != Verdict::kAccepted) failures += fmt::format("{}: {}\n", test.name, test.message);
    if (result.verdict == Verdict::kCompileError) failures = result.message;
    add(result.verdict == Verdict::kAccepted,
        result.verdict == Verdict::kAccepted ? fmt::format("reference accepted on all {} cases", result.tests.size())
                                             : "reference accepted, got " + verdict_name(result.verdict),
        failures);
    if (tightest) {
      const TestCase* spec = find_case(tightest->name);
      double headroom = tightest->slowest_call_ms > 0 ? spec->time_ms / tightest->slowest_call_ms : INFINITY;
      add(has_headroom(*tightest),
          fmt::format("time: the reference's tightest request ({}) took {:.1f} ms of its {} ms limit: {}x headroom "
                      "(at least {:g}x required{})",
                      tightest->name, tightest->slowest_call_ms, spec->time_ms,
                      std::isinf(headroom) ? std::string("unbounded") : fmt::format("{:.1f}", headroom),
                      required_headroom(*spec),
                      is_statistical(*spec) ? ": room for an honest solution 10x slower, twice over" : ""),
          has_headroom(*tightest) ? "" : "raise the case's time_ms, or make the input smaller");
    }
  }

  // The case whose slowest request used the largest share of its time
  // limit, relative to the headroom it needs; nullptr when none is known.
  const TestResult* tightest_request(const ProblemResult& result) const {
    const TestResult* tightest = nullptr;
    double worst = 0;
    for (const TestResult& test : result.tests) {
      const TestCase* spec = find_case(test.name);
      if (!spec) continue;
      double relative = test.slowest_call_ms / spec->time_ms * required_headroom(*spec);
      if (relative >= worst) worst = relative, tightest = &test;
    }
    return tightest;
  }

  bool has_headroom(const TestResult& test) const {
    const TestCase* spec = find_case(test.name);
    return test.slowest_call_ms <= 0 || spec->time_ms / test.slowest_call_ms >= required_headroom(*spec);
  }

  // Every case needs room for a busy machine; statistical cases, whose
  // requests are many calls of the learner's code, also for honest
  // solutions kProbeSlowdown times slower per call.
  static double required_headroom(const TestCase& test) {
    return is_statistical(test) ? kProbeSlowdown * kSlowAlternativeHeadroom : kTimeHeadroom;
  }

  static bool is_statistical(const TestCase& test) { return cost_of(test) == CheckCost::kManyCalls; }
  static bool is_timing_check(const TestCase& test) { return cost_of(test) == CheckCost::kTimed; }

  void check_stub(const std::string& stub) {
    ProblemResult result = judge_file(stub, display_path(stub));
    if (result.verdict == Verdict::kCompileError) return add(false, "the stub compiles", result.message);
    add(result.verdict != Verdict::kAccepted,
        result.verdict == Verdict::kAccepted
            ? "the untouched stub is not accepted"
            : fmt::format("the untouched stub compiles and gets {} (not accepted)", verdict_name(result.verdict)),
        result.verdict == Verdict::kAccepted ? "a learner could pass without writing anything: add cases the stub fails"
                                             : "");
  }

  void check_expectations_and_margins(const SolutionsIndex& index) {
    BuildOutcome reference = build_runner(paths_, problem_, index.reference, "reference solution");
    if (!reference.ok) return;
    ReferenceOracle oracle(problem_, reference.binary);
    check_expectations(oracle);
    if (problem_.margin) check_margins(oracle, *problem_.margin);
  }

  void check_expectations(ReferenceOracle& oracle) {
    std::string disagreements;
    int stored = 0;
    for (const TestCase* test : problem_.cases()) {
      if (!test->expect || test->check != "values") continue;
      ++stored;
      nlohmann::json actual =
          oracle.call(test->check_args.value("expect_op", test->op), materialize_input(test->input));
      if (auto mismatch = compare_output(problem_.find_op(test->op)->output, *test->expect, actual, test->tolerance))
        disagreements += fmt::format("{}:{}: case {}: the reference gives {}: {}\n", display_path(test->place.file),
                                     test->place.line, test->name, brief(actual), *mismatch);
    }
    add(disagreements.empty(), fmt::format("stored expectations agree with the reference ({} cases)", stored),
        disagreements);
  }

  void check_margins(ReferenceOracle& oracle, const MarginRule& rule) {
    std::string close_calls;
    int measured = 0;
    double smallest = INFINITY;
    for (const TestCase* listed : problem_.cases()) {
      if (listed->exact_boundary || listed->expects_invalid_argument) continue;
      if (std::find(rule.applies_to.begin(), rule.applies_to.end(), listed->op) == rule.applies_to.end()) continue;
      const TestCase test = with_inputs_expanded(*listed);
      std::vector<nlohmann::json> calls = {test.input};
      calls.insert(calls.end(), test.then.begin(), test.then.end());
      for (std::size_t call = 0; call < calls.size(); ++call) {
        // A sequence case's later calls are named by their place.
        std::string name = call == 0 ? test.name : fmt::format("{} (call {})", test.name, call + 1);
        nlohmann::json args = nlohmann::json::object();
        for (const auto& [input, type] : problem_.find_op(rule.op)->inputs)
          if (calls[call].contains(input)) args[input] = calls[call][input];
        double margin = oracle.call(rule.op, args).get<double>();
        ++measured;
        if (std::isnan(margin) || margin < 0) {
          close_calls += fmt::format(
              "{}:{}: case {}: margin op {} returned {}; a margin is a distance >= 0, or .inf when no boundary can "
              "change the answer\n",
              display_path(test.place.file), test.place.line, name, rule.op, format_number(margin));
          continue;
        }
        smallest = std::min(smallest, margin);
        if (margin < rule.min)
          close_calls += fmt::format(
              "{}:{}: case {} is {} from a decision boundary; move it away, or mark it "
              "`exact_boundary: true` if the boundary is exact in binary and intended\n",
              display_path(test.place.file), test.place.line, name, format_number(margin));
      }
    }
    add(close_calls.empty(),
        fmt::format("boundary margins: {} inputs at least {} from a boundary (closest {})", measured,
                    format_number(rule.min), format_number(smallest)),
        close_calls);
  }

  const TestCase* find_case(const std::string& name) const {
    for (const TestCase* test : problem_.cases())
      if (test->name == name) return test;
    return nullptr;
  }

  const Paths& paths_;
  std::string slug_;
  const std::function<void(const ValidationCheck&)>& on_check_;
  Package package_;
  Problem problem_;
  ProblemResult reference_result_;  // for comparing alternatives' times
  ValidationReport report_;
};
}  // namespace

ValidationReport validate_problem(const Paths& paths, const std::string& slug,
                                  const std::function<void(const ValidationCheck&)>& on_check) {
  return Validator(paths, slug, on_check).run();
}

}  // namespace judge
