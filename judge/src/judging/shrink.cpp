// shrink_failures: which failures are shrunk, the contract every candidate
// must keep, the check it must still fail, and the final check again.
#include "judging/shrink.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <set>

#include "judging/shrink_candidates.hpp"
#include "judging/shrink_search.hpp"
#include "package/typed_values.hpp"
#include "util/errors.hpp"

namespace judge {
using json = nlohmann::json;
namespace {
using Clock = std::chrono::steady_clock;

// At most this many failures are shrunk (or said not to be) per problem.
constexpr std::size_t kMaxShrunk = 3;
// A candidate needs at least this much of the budget left to be run.
constexpr int kMinCandidateMs = 20;

// Seeds a speculative fixed-answer candidate is called with (the case's
// first ones: a prefix of the stream the case itself uses); the final check
// again uses the case's own count.
constexpr std::int64_t kFixedAnswerSeeds = 50;

bool is_sampler_check(const std::string& check) { return check == "distribution" || check == "sampler_support"; }

// A case the speculative check holds to one stored answer for every seed
// (not to laws over thousands of rounds), of an op that names its
// fixed-answer op (problem.yaml `fixed_answer:`), which says which smaller
// inputs have such an answer.
bool is_fixed_answer(const Problem& problem, const TestCase& test) {
  const Operation* op = problem.find_op(test.op);
  return op && !op->fixed_answer.empty() && test.check == "speculative" && test.expect.has_value();
}

// Why `result`, a failure of `test`, is not shrunk; empty when it is.
std::string why_not_shrunk(const Problem& problem, const TestCase& test, const TestResult& result) {
  if (result.verdict == Verdict::kTimeLimitExceeded || result.verdict == Verdict::kMemoryLimitExceeded)
    return "not shrunk: a time or memory limit is not shrunk (each smaller input could use the whole limit)";
  if (test.check == "values" || test.check == "hypotheses" || is_fixed_answer(problem, test)) return "";
  if (is_sampler_check(test.check)) {
    if (result.failure_kind == "zero_probability" || result.failure_kind == "nondeterministic") return "";
    return "not shrunk: the draws are judged by their distribution over thousands of seeds, and each smaller input "
           "would need as many again";
  }
  if (test.check == "speculative")
    return "not shrunk: the rounds are judged by their laws over thousands of seeds, and each smaller model would need "
           "as many again";
  return fmt::format("not shrunk: check '{}' judges more than one call's answer", test.check);
}

// The inputs of op `name` taken from `input` (a probability or margin op
// takes fewer than the case's op).
json args_for(const Problem& problem, const std::string& name, const json& input) {
  const Operation* op = problem.find_op(name);
  if (!op) throw JudgeFault{fmt::format("{}: no op '{}'", problem.slug, name)};
  json args = json::object();
  for (const auto& [key, type] : op->inputs)
    if (input.contains(key)) args[key] = input[key];
  return args;
}

class CaseShrinker {
 public:
  CaseShrinker(const Problem& problem, const TestCase& listed, const TestResult& failed, const CaseRunSetup& setup,
               CaseRunners& runners)
      : problem_(problem), listed_(listed), failed_(failed), setup_(setup), runners_(runners) {}

  ShrunkExample shrink(double budget_ms) {
    ShrunkExample example;
    example.from_case = listed_.name;
    example.failure_kind = failed_.failure_kind;
    const auto start = Clock::now();
    deadline_ = start + std::chrono::microseconds(static_cast<std::int64_t>(budget_ms * 1000));
    const json original = materialize_input(listed_.input);
    const Operation* op = problem_.find_op(listed_.op);
    ShrinkSearch search = shrink_input(
        *op, original, [&](const json& candidate) { return fails_alike(candidate, remaining_ms()); }, deadline_);
    example.candidates_tried = search.tried;
    if (search.taken == 0) {
      example.not_shrunk = fmt::format("not shrunk: none of {} smaller inputs failed the same way{}", search.tried,
                                       search.out_of_time ? fmt::format(" within {:.2f} s", budget_ms / 1000) : "");
    } else {
      // Checked again, with the case's own time limit, before it is shown.
      std::optional<TestResult> again;
      try {
        if (within_contract(search.input)) again = run(search.input, listed_.time_ms, true);
      } catch (const JudgeFault&) {
      } catch (const SpecError&) {
      }
      if (again && same_failure(*again)) {
        example.shrunk = true;
        example.sizes = size_change(*op, original, search.input);
        if (example.sizes.empty()) example.sizes = "the same size, simpler values";
        example.input = search.input;
        example.message = again->message;
        example.details = again->details;
      } else {
        example.not_shrunk = "not shrunk: the smaller input did not fail again when checked before showing it";
      }
    }
    example.ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    return example;
  }

 private:
  int remaining_ms() const {
    return static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - Clock::now()).count());
  }

  bool sampler() const { return is_sampler_check(listed_.check); }

  // The case on `input`: expectations from the reference (a stored
  // `expect` was for the case's own input), or for a speculative round the
  // answer it has whatever the draws, called with kFixedAnswerSeeds seeds
  // (`final`: the case's own count); a sampler's support and determinism
  // checked on kShrinkDraws seeds.
  TestCase candidate_case(const json& input, int time_ms, bool final) {
    TestCase test = listed_;
    test.input = input;
    test.expect.reset();
    test.time_ms = time_ms;
    if (is_fixed_answer(problem_, listed_)) {
      std::optional<json> answer = fixed_answer(input);
      if (!answer) throw JudgeFault{"the candidate has no answer independent of the draws"};
      test.expect = *answer;
      if (!final)
        test.check_args["seeds"] =
            std::min<std::int64_t>(listed_.check_args.value("seeds", kFixedAnswerSeeds), kFixedAnswerSeeds);
    }
    if (sampler()) {
      test.check = "sampler_support";
      test.check_args = {{"probs_op", listed_.check_args.at("probs_op")}, {"draws", kShrinkDraws}};
    }
    return test;
  }

  TestResult run(const json& input, int time_ms, bool final) {
    return judge_case(problem_, candidate_case(input, time_ms, final), setup_, runners_);
  }

  bool same_failure(const TestResult& result) const {
    return result.verdict == failed_.verdict && result.failure_kind == failed_.failure_kind;
  }

  // Whether the reference takes `input` as the case takes its own: every op
  // the check asks it (the case's op, an oracle op, a sampler's
  // probabilities) returns a value, or throws std::invalid_argument where
  // the case expects that; and the input keeps the problem's margin from
  // its decision boundaries. A speculative round must have an answer
  // independent of the draws, which the reference gives (with seed 0).
  bool within_contract(const json& input) {
    if (is_fixed_answer(problem_, listed_)) {
      std::optional<json> answer = fixed_answer(input);
      if (!answer) return false;
      json args = args_for(problem_, listed_.op, input);
      for (const auto& [name, type] : problem_.find_op(listed_.op)->inputs)
        if (type == ValueType::kSeed) args[name] = 0;
      return runners_.oracle.call(listed_.op, args) == *answer;  // JudgeFault when no value
    }
    std::vector<std::string> ops;
    if (sampler())
      ops.push_back(listed_.check_args.at("probs_op").get<std::string>());
    else
      ops.push_back(listed_.op);
    if (listed_.check_args.contains("expect_op")) ops.push_back(listed_.check_args["expect_op"].get<std::string>());
    for (const std::string& name : ops) {
      const json args = args_for(problem_, name, input);
      if (!listed_.expects_invalid_argument) {
        // Through the memo: the check asks the same again.
        runners_.oracle.call(name, args);  // JudgeFault when no value: outside the contract
        continue;
      }
      CallResult reply = runners_.oracle.fresh_call(Request(name, args));
      if (reply.outcome != CallResult::Outcome::kException || reply.exception_kind != "invalid_argument") return false;
    }
    const std::optional<MarginRule>& margin = problem_.margin;
    if (listed_.expects_invalid_argument || !margin ||
        std::find(margin->applies_to.begin(), margin->applies_to.end(), listed_.op) == margin->applies_to.end())
      return true;
    CallResult reply = runners_.oracle.fresh_call(Request(margin->op, args_for(problem_, margin->op, input)));
    return reply.outcome == CallResult::Outcome::kValue && reply.value.is_number() &&
           reply.value.get<double>() >= margin->min;
  }

  // The answer `input` has whatever the draws, from the op's fixed-answer
  // op on the reference's runner; nullopt when the draws decide it.
  std::optional<json> fixed_answer(const json& input) {
    const std::string& name = problem_.find_op(listed_.op)->fixed_answer;
    json answer = runners_.oracle.call(name, args_for(problem_, name, input));  // JudgeFault when no value
    if (answer.is_null()) return std::nullopt;
    return answer;
  }

  bool fails_alike(const json& input, int time_ms) {
    if (time_ms < kMinCandidateMs) return false;
    try {
      if (!within_contract(input)) return false;
      return same_failure(run(input, std::min(listed_.time_ms, time_ms), false));
    } catch (const JudgeFault&) {
      return false;  // the reference could not answer the candidate: outside the contract
    } catch (const SpecError&) {
      return false;
    }
  }

  const Problem& problem_;
  const TestCase& listed_;
  const TestResult& failed_;
  const CaseRunSetup& setup_;
  CaseRunners& runners_;
  Clock::time_point deadline_;
};
}  // namespace

std::vector<ShrunkExample> shrink_failures(const Problem& problem, const std::vector<const TestCase*>& cases,
                                           const std::vector<TestResult>& results, const CaseRunSetup& setup,
                                           CaseRunners& runners, double budget_ms) {
  // Code that passes no case (the untouched stub, which throws "not
  // implemented" on every input) fails regardless of its input: a smaller
  // one would teach nothing, and would cost the whole budget.
  if (std::none_of(results.begin(), results.end(),
                   [](const TestResult& result) { return result.verdict == Verdict::kAccepted; }))
    return {};
  // The first failing case of each kind, in case order.
  std::vector<std::size_t> firsts;
  std::set<std::string> kinds;
  for (std::size_t i = 0; i < results.size() && i < cases.size() && firsts.size() < kMaxShrunk; ++i) {
    const TestResult& result = results[i];
    if (result.verdict == Verdict::kAccepted || result.failure_kind.empty()) continue;
    if (kinds.insert(result.failure_kind).second) firsts.push_back(i);
  }
  std::size_t left = 0;
  for (std::size_t i : firsts) left += why_not_shrunk(problem, *cases[i], results[i]).empty();
  const auto deadline = Clock::now() + std::chrono::microseconds(static_cast<std::int64_t>(budget_ms * 1000));
  std::vector<ShrunkExample> examples;
  for (std::size_t i : firsts) {
    std::string reason = why_not_shrunk(problem, *cases[i], results[i]);
    if (!reason.empty()) {
      ShrunkExample example;
      example.from_case = cases[i]->name;
      example.failure_kind = results[i].failure_kind;
      example.not_shrunk = reason;
      examples.push_back(std::move(example));
      continue;
    }
    // What is left of the budget, shared by the failures left to shrink.
    double share =
        std::chrono::duration<double, std::milli>(deadline - Clock::now()).count() / static_cast<double>(left--);
    if (share < kMinCandidateMs) {
      ShrunkExample example;
      example.from_case = cases[i]->name;
      example.failure_kind = results[i].failure_kind;
      example.not_shrunk =
          fmt::format("not shrunk: the shrinking budget ({:g} s) was spent on earlier failures", budget_ms / 1000);
      examples.push_back(std::move(example));
      continue;
    }
    examples.push_back(CaseShrinker(problem, *cases[i], results[i], setup, runners).shrink(share));
  }
  return examples;
}

}  // namespace judge
