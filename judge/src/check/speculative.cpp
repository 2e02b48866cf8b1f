// The `speculative` checker: judges a speculative-decoding verify step by
// the laws its output must follow, never by golden token ids.
//
// With an op that takes `seeds` (speculate_many), the case's input holds a
// toy draft model and a toy target model (bigram tables, see below). The
// harness decodes with them once per seed, drawing the drafts itself and
// letting the learner's function verify them, until two tokens are out. The
// checker supplies thousands of well-mixed seeds and checks:
//   1. structure, for every round: 1 to K+1 tokens, all in [0, V), every
//      token but the last equal to the draft at its position;
//   2. support: no emitted token has target probability 0 after its
//      predecessor, and no accepted-draft count of probability 0 occurs;
//   3. determinism: the same seed again gives the same rounds;
//   4. three laws, by Pearson's chi-square (stats.hpp), each at a third of
//      kFalseRejectRate, with enough seeds to catch any category off by
//      kDetectableDeviation, tested after every batch so that a wrong round
//      stops early (the rate spent over the looks, stats.hpp), and a correct
//      one stops once every law is shown within kDetectableDeviation
//      (fits_within, at an accept look's share of the miss rate):
//        - the first emitted token follows the target's p_0;
//        - the number of drafts accepted in the first round follows the law
//          of the acceptance rule min(1, p_i / q_i) (computed here from the
//          tables: with alpha_i = sum_x min(p_i, q_i)(x), exactly j are
//          accepted with probability prod_{i<j} alpha_i * (1 - alpha_j));
//        - the first two emitted tokens follow the target's joint law
//          p_0(a) * p(b | a).
// The laws are computed here, in the judge, from the tables in the case.
//
// With an op that takes one `seed` (speculative_accept), the case must give
// `expect`: the checker calls the op with many seeds (check_args.seeds,
// default 200) and every call must return exactly `expect`. For inputs whose
// answer does not depend on the random draws (every draft has p >= q and the
// bonus distribution is one token, say).
//
// The tables and the laws are read and computed in speculative_laws.hpp.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

#include "check/checker.hpp"
#include "check/compare.hpp"
#include "check/registry.hpp"
#include "check/speculative_laws.hpp"
#include "check/stats.hpp"
#include "package/typed_values.hpp"
#include "run/number_list.hpp"
#include "util/errors.hpp"

namespace judge {
namespace {
using nlohmann::json;

// Small enough that a correct round's test stops soon after its seeds
// suffice (each accept look needs every law within the deviation).
constexpr std::size_t kRoundSeedsPerRequest = 4000;
constexpr std::size_t kRoundRepeatedSeeds = 300;
constexpr std::int64_t kDefaultFixedSeeds = 200;

class SpeculativeChecker : public Checker {
 public:
  // `seeds` for a law case, `seed` for a fixed-answer case; an op has one.
  std::vector<std::string> supplied_inputs(const TestCase&) const override { return {"seed", "seeds"}; }
  CheckCost cost() const override { return CheckCost::kManyCalls; }

  std::optional<std::string> problem_with(const TestCase& test, const Operation& op) const override {
    bool many = false, one = false;
    for (const auto& [name, type] : op.inputs) {
      many = many || (name == "seeds" && type == ValueType::kSeeds);
      one = one || (name == "seed" && type == ValueType::kSeed);
    }
    if (test.expects_invalid_argument) return "check 'speculative' takes no 'throws'";
    if (many) {
      if (!test.check_args.empty()) return "check 'speculative' on a 'seeds' op takes no check_args";
      if (test.expect) return "check 'speculative' on a 'seeds' op takes no 'expect'";
      if (!test.input.contains("model")) return "check 'speculative' needs input.model";
      Tables tables;
      std::string problem;
      if (!read_tables(test.input["model"], &tables, &problem)) return "input.model: " + problem;
      return std::nullopt;
    }
    if (!one) return fmt::format("op '{}' takes neither 'seeds' nor 'seed'", op.name);
    for (const auto& [key, value] : test.check_args.items())
      if (key != "seeds" || !value.is_number_integer() || value.get<std::int64_t>() < 1)
        return "check 'speculative' on a 'seed' op takes only check_args.seeds (a positive count)";
    if (!test.expect) return "check 'speculative' on a 'seed' op needs 'expect': the answer for every seed";
    return std::nullopt;
  }

  TestResult run(CheckContext& context) const override {
    const Operation* op = context.problem.find_op(context.test.op);
    for (const auto& [name, type] : op->inputs)
      if (name == "seeds") return run_laws(context);
    return run_fixed(context);
  }

 private:
  // Calls the op with one extra input; false (verdict in *result) when it
  // did not return a value.
  static bool call(CheckContext& context, const std::string& key, const json& value, TestResult* result, json* out) {
    json args = context.test.input;
    args[key] = value;
    const Request request(context.test.op, args);
    CallResult reply = call_learner(context, request, result);
    if (verdict_for_unusual_call(reply, context, request, result)) {
      if (key == "seeds") name_failing_seed(context, key, value.get<std::vector<std::uint64_t>>(), result);
      return false;
    }
    *out = std::move(reply.value);
    return true;
  }

  static TestResult run_fixed(CheckContext& context) {
    const TestCase& test = context.test;
    TestResult result = start_result(test);
    const std::int64_t count = test.check_args.value("seeds", kDefaultFixedSeeds);
    for (std::uint64_t seed : case_seeds(context, static_cast<std::size_t>(count))) {
      json got;
      if (!call(context, "seed", seed, &result, &got)) return result;
      if (got != *test.expect) {
        result.returned = expanded(got);
        return fail(&result,
                    fmt::format("seed {}: expected {}, got {}; this answer does not depend on the random draws, so "
                                "every seed must give it",
                                seed, brief(*test.expect), brief(got)),
                    "value");
      }
    }
    return result;
  }

  // What a law case accumulates over its seeds.
  struct LawRun {
    Tables tables;
    std::vector<Law> laws;
    double rate = kFalseRejectRate / kLaws;
    std::vector<std::uint64_t> seeds;
    std::vector<std::vector<std::int64_t>> counts;  // per law, per category
    std::vector<json> first_replies;                // asked again for determinism
  };

  static TestResult run_laws(CheckContext& context) {
    const TestCase& test = context.test;
    TestResult result = start_result(test);
    LawRun run;
    std::string problem;
    if (!read_tables(test.input["model"], &run.tables, &problem))
      throw JudgeFault{"case '" + test.name + "': " + problem};
    run.laws = laws_of(run.tables);
    std::int64_t draws = 0;
    for (const Law& law : run.laws)
      draws = std::max(draws, draws_for_sequential_test(law.probs, run.rate, kRoundSeedsPerRequest));
    run.seeds = case_seeds(context, static_cast<std::size_t>(draws));
    for (const Law& law : run.laws) run.counts.emplace_back(law.probs.size(), 0);
    int looks = 0, accept_looks = 0;
    for (std::size_t start = 0; start < run.seeds.size(); start += kRoundSeedsPerRequest) {
      if (!observe_batch(context, start, &run, &result)) return result;
      // Determinism right away: a seed-ignoring round fails in one batch.
      if (start == 0 && !deterministic(context, run, &result)) return result;
      std::size_t seen = std::min(run.seeds.size(), start + kRoundSeedsPerRequest);
      // An early look, so that a wrong round stops here (stats.hpp).
      if (seen < run.seeds.size() && looks++ < kMaxEarlyLooks &&
          laws_rejected(run, early_look_rate(run.rate), seen, &result))
        return result;
      if (seen < run.seeds.size() && accept_looks++ < kMaxAcceptLooks && laws_fit(run)) return result;
    }
    laws_rejected(run, final_look_rate(run.rate), run.seeds.size(), &result);
    return result;
  }

  // Draws the batch of seeds from `start` and counts what the laws see;
  // false (verdict in *result) at the first broken rule.
  static bool observe_batch(CheckContext& context, std::size_t start, LawRun* run, TestResult* result) {
    const std::vector<std::uint64_t>& seeds = run->seeds;
    std::vector<std::uint64_t> batch(
        seeds.begin() + static_cast<long>(start),
        seeds.begin() + static_cast<long>(std::min(seeds.size(), start + kRoundSeedsPerRequest)));
    json replies;
    if (!call(context, "seeds", batch, result, &replies)) return false;
    if (!replies.is_array() || replies.size() != batch.size())
      return fail(result, "the harness got no list of results back", "malformed"), false;
    for (std::size_t i = 0; i < batch.size(); ++i) {
      std::string error, kind;
      std::optional<Observation> seen = observe(run->tables, batch[i], replies[i], &error, &kind);
      if (!seen) return fail(result, error, kind), false;
      if (run->laws[1].probs[static_cast<std::size_t>(seen->accepted)] == 0)
        return fail(result,
                    fmt::format("seed {}: {} drafts accepted in the first round, but these tables give that count "
                                "probability 0 under the rule accept x_i with probability min(1, p_i(x_i) / "
                                "q_i(x_i)); the law is {}",
                                batch[i], seen->accepted, law_text(run->laws[1])),
                    "zero_probability"),
               false;
      ++run->counts[0][static_cast<std::size_t>(seen->first)];
      ++run->counts[1][static_cast<std::size_t>(seen->accepted)];
      ++run->counts[2][static_cast<std::size_t>(seen->first * run->tables.vocab + seen->second)];
    }
    if (start == 0)
      run->first_replies.assign(replies.begin(),
                                replies.begin() + static_cast<long>(std::min(kRoundRepeatedSeeds, replies.size())));
    return true;
  }

  // The first seeds again, in reverse order, in a request of their own.
  static bool deterministic(CheckContext& context, const LawRun& run, TestResult* result) {
    std::vector<std::uint64_t> again(run.first_replies.size());
    for (std::size_t i = 0; i < again.size(); ++i) again[i] = run.seeds[again.size() - 1 - i];
    json replies;
    if (!call(context, "seeds", again, result, &replies)) return false;
    for (std::size_t i = 0; i < again.size(); ++i) {
      const json& before = run.first_replies[again.size() - 1 - i];
      if (replies.is_array() && i < replies.size() && replies[i] == before) continue;
      fail(result,
           fmt::format("not deterministic in its seed: with seed {} the rounds were {} the first time and {} when "
                       "asked again (seed a generator from the seed in every call, and keep no state between calls)",
                       again[i], brief(before),
                       replies.is_array() && i < replies.size() ? brief(replies[i]) : "nothing"),
           "nondeterministic");
      return false;
    }
    return true;
  }

  // True when every law is shown within kDetectableDeviation (an accept
  // look of the sequential test).
  static bool laws_fit(const LawRun& run) {
    for (int l = 0; l < kLaws; ++l)
      if (!fits_within(run.laws[l].probs, run.counts[l], kDetectableDeviation, accept_look_miss_rate(kMissRate)))
        return false;
    return true;
  }

  // Tests the laws on the first `seen` seeds at `rate` each; true (verdict
  // in *result) when one is rejected.
  static bool laws_rejected(const LawRun& run, double rate, std::size_t seen, TestResult* result) {
    std::vector<std::string> failures;
    json histograms = json::array();
    std::string over =
        seen == run.seeds.size()
            ? fmt::format("over {} seeds", seen)
            : fmt::format("over the first {} of {} seeds: the test stops once it rejects", seen, run.seeds.size());
    for (int l = 0; l < kLaws; ++l) {
      for (std::int64_t c : run.counts[l]) histograms.push_back(c);
      FitResult fit = chi_square_fit(run.laws[l].probs, run.counts[l], rate);
      if (!fit.rejected) continue;
      failures.push_back(fmt::format(
          "{}: {} came up with frequency {:.4f}, expected {:.4f} (chi-square {:.1f} > threshold {:.1f} for {} "
          "degrees of freedom at a false-reject rate of {:.2g}, {})",
          run.laws[l].what, run.laws[l].label(fit.worst_category), fit.worst_observed, fit.worst_expected,
          fit.statistic, fit.threshold, fit.degrees_of_freedom, run.rate, over));
    }
    if (failures.empty()) return false;
    result->returned = histograms;  // all three histograms, to match against known mistakes
    fail(result, fmt::format("{}", fmt::join(failures, "; and ")), "distribution");
    return true;
  }

  static std::string law_text(const Law& law) {
    std::string out;
    for (std::size_t c = 0; c < law.probs.size(); ++c)
      out += fmt::format("{}{}: {:.4f}", out.empty() ? "" : ", ", law.label(static_cast<int>(c)), law.probs[c]);
    return out;
  }
};
}  // namespace

const Checker& speculative_checker() {
  static const SpeculativeChecker checker;
  return checker;
}

}  // namespace judge
