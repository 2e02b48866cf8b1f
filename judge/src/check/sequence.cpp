// The `sequence` checker: calls are independent. A case lists calls of one
// op, `input` and then each input of `then`. They are made three times:
// in that order on the learner's runner as earlier cases left it; in that
// order again on a fresh runner; and on another fresh runner in reverse
// order, each twice in a row. Every answer is judged as that one call
// would be:
//   - by default, it equals the reference's answer to the same input
//     (within the case's tolerance). The answers are judged once every
//     call is made, so that a computation wrong every time is told apart
//     from an answer that depends on an earlier call (one input, two
//     answers), and the answers of the two fresh runners, which no earlier
//     case can change, decide what the failure is: the same mistake gets
//     the same failure on any machine, in any order of the cases;
//   - with check_args.probs_op (a sampler: a `seeds` input, `ints` out),
//     every drawn token has probability above 0 under the reference's
//     probs_op on the same input;
//   - with check_args.repeatable (an op whose answer depends on the
//     solution's own generator, one speculative round say), answers are
//     compared only with one another.
// With probs_op or repeatable, the same arguments must also get the same
// answer every time, whatever came before: a sampler's token is keyed by
// its other inputs and its seed, so a seed listed twice in one call's seeds
// is two calls with the same arguments, one right after the other.
#include <fmt/format.h>

#include <map>

#include "check/checker.hpp"
#include "check/compare.hpp"
#include "check/registry.hpp"
#include "run/number_list.hpp"

namespace judge {
namespace {
using nlohmann::json;

enum class Mode { kReference, kSupport, kRepeatable };

Mode mode_of(const TestCase& test) {
  if (test.check_args.contains("probs_op")) return Mode::kSupport;
  if (test.check_args.contains("repeatable")) return Mode::kRepeatable;
  return Mode::kReference;
}

// Where a call was made: which input, and in which pass.
struct CallPlace {
  std::size_t input = 0;
  int pass = 0;        // 0: the runner as earlier cases left it; 1, 2: fresh runners
  bool again = false;  // the second of its two calls in a row (pass 2)
};

std::string describe(const CallPlace& where, std::size_t inputs) {
  if (where.pass == 0)
    return fmt::format("input {} of {}, in the case's order on the runner as earlier cases left it", where.input + 1,
                       inputs);
  if (where.pass == 1)
    return fmt::format("input {} of {}, in the case's order in a fresh runner", where.input + 1, inputs);
  return fmt::format("input {} of {}, {}in a fresh runner (the inputs in reverse order, each twice in a row)",
                     where.input + 1, inputs, where.again ? "the second time in a row, " : "");
}

// `input` without the sampler's seeds: what identifies a draw beside its seed.
std::string without_seeds(const json& input) {
  json rest = input;
  rest.erase("seeds");
  return rest.dump();
}

class SequenceRun {
 public:
  explicit SequenceRun(CheckContext& context)
      : context_(context), test_(context.test), mode_(mode_of(context.test)), result_(start_result(context.test)) {
    inputs_.push_back(test_.input);
    inputs_.insert(inputs_.end(), test_.then.begin(), test_.then.end());
  }

  TestResult run() {
    for (std::size_t i = 0; i < inputs_.size(); ++i)
      if (!call({i, 0, false})) return result_;
    if (mode_ == Mode::kReference) {
      context_.learner.stop();  // the next call starts a fresh runner
      for (std::size_t i = 0; i < inputs_.size(); ++i)
        if (!call({i, 1, false})) return result_;
    }
    context_.learner.stop();
    for (std::size_t i = inputs_.size(); i-- > 0;)
      for (bool again : {false, true})
        if (!call({i, 2, again})) return result_;
    if (mode_ == Mode::kReference) judge_answers();
    return result_;
  }

 private:
  bool call(const CallPlace& where) {
    const json& input = inputs_[where.input];
    const Request request(test_.op, input);
    CallResult reply = call_learner(context_, request, &result_);
    if (verdict_for_unusual_call(reply, context_, request, &result_)) {
      result_.message = describe(where, inputs_.size()) + ": " + result_.message;
      add_call(input);
      return false;
    }
    switch (mode_) {
      case Mode::kReference: made_.push_back({where, std::move(reply.value)}); return true;
      case Mode::kSupport: return draws_possible(where, reply.value) && draws_repeat(where, reply.value);
      case Mode::kRepeatable: return repeats(input.dump(), where, reply.value, "");
    }
    return true;
  }

  // The reference's answer to input `i`, asked once.
  const json& wanted(std::size_t i) {
    auto known = wanted_.find(i);
    if (known != wanted_.end()) return known->second;
    return wanted_[i] = context_.reference(test_.op, inputs_[i]);
  }

  // How `got` differs from the reference's answer to input `i`, if it does.
  std::optional<std::string> mismatch(std::size_t i, const json& got) {
    return compare_output(context_.problem.find_op(test_.op)->output, wanted(i), got, test_.tolerance);
  }

  // Judges the answers of every call (Mode::kReference):
  //   - a wrong answer in a fresh runner, and one input answered two ways
  //     there: "state", the answers in fresh runners kept as `returned`
  //     (what a known mistake with the same state gives too);
  //   - a wrong answer in a fresh runner, the same every time there:
  //     "value";
  //   - wrong only on the runner as earlier cases left it: "state" kept
  //     from an earlier case ("state_across_cases").
  void judge_answers() {
    const ValueType output = context_.problem.find_op(test_.op)->output;
    const Made* first_wrong = nullptr;  // in a fresh runner when there is one
    for (bool in_fresh_runner : {true, false})
      for (const Made& made : made_)
        if (!first_wrong && (made.where.pass > 0) == in_fresh_runner && mismatch(made.where.input, made.answer))
          first_wrong = &made;
    if (!first_wrong) return;
    const bool fresh = first_wrong->where.pass > 0;
    // Two answers to one input that differ, both from fresh runners if the
    // first wrong answer was.
    const Made *one = nullptr, *other = nullptr;
    for (std::size_t a = 0; a < made_.size() && !one; ++a)
      for (std::size_t b = a + 1; b < made_.size() && !one; ++b)
        if (made_[a].where.input == made_[b].where.input && (!fresh || made_[a].where.pass > 0) &&
            compare_output(output, made_[a].answer, made_[b].answer, test_.tolerance))
          one = &made_[a], other = &made_[b];
    if (!one) {
      result_.returned = expanded(first_wrong->answer);
      fail(&result_,
           fmt::format("{}: {} (the same answer every time in fresh runners)",
                       describe(first_wrong->where, inputs_.size()),
                       with_case_tolerance(context_, *mismatch(first_wrong->where.input, first_wrong->answer))),
           "value");
      result_.details = "expected: " + brief(wanted(first_wrong->where.input), 16) +
                        "\ngot:      " + brief(first_wrong->answer, 16) + "\n";
      add_call(inputs_[first_wrong->where.input]);
      return;
    }
    json in_fresh_runners = json::array();
    for (const Made& made : made_)
      if (made.where.pass > 0) in_fresh_runners.push_back(made.answer);
    result_.returned = expanded(fresh ? in_fresh_runners : first_wrong->answer);
    fail(&result_,
         fmt::format("input {} of {} got two answers: the answer depended on an earlier call{}, where it must depend "
                     "on the call's own arguments alone (no memo, cache or static state kept between calls)",
                     one->where.input + 1, inputs_.size(), fresh ? "" : " of an earlier case"),
         fresh ? "state" : "state_across_cases");
    result_.details =
        fmt::format("expected: {}\nfirst:    {} ({})\nthen:     {} ({})\n", brief(wanted(one->where.input), 16),
                    brief(one->answer, 16), describe(one->where, inputs_.size()), brief(other->answer, 16),
                    describe(other->where, inputs_.size()));
    add_call(inputs_[one->where.input]);
  }

  bool draws_possible(const CallPlace& where, const json& got) {
    const json& input = inputs_[where.input];
    const std::vector<double>& probs = probabilities(where.input);
    const std::vector<std::uint64_t> seeds = input.at("seeds").get<std::vector<std::uint64_t>>();
    if (!got.is_array() || got.size() != seeds.size()) {
      fail(&result_, fmt::format("{}: {} seeds gave {}", describe(where, inputs_.size()), seeds.size(), brief(got)),
           "value");
      add_call(input);
      return false;
    }
    for (std::size_t i = 0; i < seeds.size(); ++i) {
      const json& token = got[i];
      const bool possible = token.is_number_integer() && token.get<std::int64_t>() >= 0 &&
                            token.get<std::int64_t>() < static_cast<std::int64_t>(probs.size()) &&
                            probs[token.get<std::size_t>()] > 0;
      if (possible) continue;
      fail(&result_,
           fmt::format("{}: seed {} drew token {}, which has probability 0 for this input; a draw that depends on "
                       "an earlier call (a token remembered from another input) does that",
                       describe(where, inputs_.size()), seeds[i], token.dump()),
           "zero_probability");
      add_call(input);
      return false;
    }
    return true;
  }

  bool draws_repeat(const CallPlace& where, const json& got) {
    const json& input = inputs_[where.input];
    const std::string rest = without_seeds(input);
    const std::vector<std::uint64_t> seeds = input.at("seeds").get<std::vector<std::uint64_t>>();
    for (std::size_t i = 0; i < seeds.size(); ++i)
      if (!repeats(rest + "#" + std::to_string(seeds[i]), where, got[i], fmt::format(" with seed {}", seeds[i])))
        return false;
    return true;
  }

  // Whether `got` is what the same arguments (`key`) got before, if they
  // came up before; remembers it otherwise.
  bool repeats(const std::string& key, const CallPlace& where, const json& got, const std::string& with_seed) {
    auto [seen, first] = answers_.emplace(key, Seen{got, where});
    if (first || seen->second.answer == got) return true;
    fail(&result_,
         fmt::format("input {} of {}{} gave {} and then {}: the answer depended on an earlier call, where the same "
                     "arguments must give the same answer whatever came before (seed a generator from the seed inside "
                     "each call, and keep no state between calls)",
                     where.input + 1, inputs_.size(), with_seed, brief(seen->second.answer), brief(got)),
         "nondeterministic");
    result_.details =
        fmt::format("first:    {} ({})\nthen:     {} ({})\n", brief(seen->second.answer),
                    describe(seen->second.where, inputs_.size()), brief(got), describe(where, inputs_.size()));
    add_call(inputs_[where.input]);
    return false;
  }

  // The reference's probabilities for input `i` (its seeds left out).
  const std::vector<double>& probabilities(std::size_t i) {
    auto known = probabilities_.find(i);
    if (known != probabilities_.end()) return known->second;
    const std::string& probs_op = test_.check_args["probs_op"].get_ref<const std::string&>();
    json args = json::object();
    for (const auto& [name, type] : context_.problem.find_op(probs_op)->inputs)
      if (inputs_[i].contains(name)) args[name] = inputs_[i][name];
    return probabilities_[i] = doubles_of(context_.reference(probs_op, args));
  }

  // The failing call's input, below the message (the case's input shown
  // with it is the first call's).
  void add_call(const json& input) { result_.details += "call:     " + brief(input, 8) + "\n"; }

  struct Seen {
    json answer;
    CallPlace where;
  };
  struct Made {
    CallPlace where;
    json answer;
  };

  CheckContext& context_;
  const TestCase& test_;
  const Mode mode_;
  TestResult result_;
  std::vector<json> inputs_;
  std::map<std::string, Seen> answers_;
  std::vector<Made> made_;              // Mode::kReference: every call's answer, in call order
  std::map<std::size_t, json> wanted_;  // the reference's answers, by input
  std::map<std::size_t, std::vector<double>> probabilities_;
};

class SequenceChecker : public Checker {
 public:
  bool takes_then() const override { return true; }

  std::optional<std::string> problem_with(const TestCase& test, const Operation& op) const override {
    if (test.then.empty()) return "check 'sequence' needs `then`: the inputs of the calls after `input`";
    if (test.expect || test.expects_invalid_argument)
      return "check 'sequence' takes neither 'expect' nor 'throws': every call is valid and the reference answers it";
    for (const auto& [key, value] : test.check_args.items()) {
      if (key == "probs_op" && value.is_string()) continue;
      if (key == "repeatable" && value == true) continue;
      return fmt::format("unexpected check_args.{} (check 'sequence' takes probs_op: OP, or repeatable: true)", key);
    }
    if (test.check_args.contains("probs_op") && test.check_args.contains("repeatable"))
      return "check_args.probs_op and check_args.repeatable exclude each other";
    if (mode_of(test) == Mode::kSupport) return sampler_problem(test, op);
    return std::nullopt;
  }

  TestResult run(CheckContext& context) const override { return SequenceRun(context).run(); }

 private:
  static std::optional<std::string> sampler_problem(const TestCase& test, const Operation& op) {
    bool has_seeds = false;
    for (const auto& [name, type] : op.inputs) has_seeds = has_seeds || (name == "seeds" && type == ValueType::kSeeds);
    if (!has_seeds || op.output != ValueType::kInts)
      return fmt::format("check_args.probs_op: op '{}' must take 'seeds: seeds' and return ints", op.name);
    std::vector<const json*> inputs = {&test.input};
    for (const json& call : test.then) inputs.push_back(&call);
    for (const json* input : inputs)
      if (!input->contains("seeds") || !(*input)["seeds"].is_array() || (*input)["seeds"].empty())
        return "every call of a sampler's sequence needs seeds of its own";
    return std::nullopt;
  }
};
}  // namespace

const Checker& sequence_checker() {
  static const SequenceChecker checker;
  return checker;
}

}  // namespace judge
