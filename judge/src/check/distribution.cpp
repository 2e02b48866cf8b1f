// Checkers for sampling functions, judged by what a sampler promises rather
// than by golden token ids:
//   1. every drawn id is in range and has non-zero probability;
//   2. the same seed gives the same token;
//   3. (`distribution` only) over many well-mixed seeds the frequencies fit
//      the expected distribution: Pearson's chi-square at a false-reject rate
//      of kFalseRejectRate, with enough draws to catch any token's
//      probability off by kDetectableDeviation (see stats.hpp), tested after
//      every batch of draws so that a wrong sampler stops early (the rate is
//      spent over the looks: early_look_rate, final_look_rate), and a
//      correct one stops as soon as its draws show every token within
//      kDetectableDeviation of its probability (fits_within, at the share of
//      the miss rate each such look may spend: the power is kept).
// The expected distribution is the reference's `probs_op` on the same input.
// `sampler_support` runs checks 1 and 2, for cases that exist to test which
// tokens are kept, and adds the other direction: every token of probability
// at least kDetectableDeviation comes up (draws_for_coverage sizes it). A
// case on an input where a draw is costly states instead, as
// `check_args.least`, the smallest probability its mistakes move (a kept
// token's whole probability, say): the draws are then sized for that
// probability both ways, which takes far fewer. With `check_args.draws`,
// for inputs too large to draw from even that often, it runs checks 1 and
// 2 alone on that many draws.
#include <fmt/format.h>

#include <algorithm>

#include "check/checker.hpp"
#include "check/compare.hpp"
#include "check/registry.hpp"
#include "check/stats.hpp"
#include "package/typed_values.hpp"
#include "run/number_list.hpp"
#include "run/reply.hpp"

namespace judge {
namespace {
using nlohmann::json;

// Batches after the first are small enough that a correct sampler's test
// stops soon after its draws suffice, large enough that a request's round
// trip is nothing beside its draws.
constexpr std::size_t kSeedsPerRequest = 4000;
constexpr std::size_t kFirstBatch = 2000;
constexpr std::size_t kRepeatedSeeds = 500;

class SamplerChecker : public Checker {
 public:
  explicit SamplerChecker(bool full) : full_(full) {}

  std::vector<std::string> supplied_inputs(const TestCase&) const override { return {"seeds"}; }
  CheckCost cost() const override { return CheckCost::kManyCalls; }

  std::optional<std::string> problem_with(const TestCase& test, const Operation& op) const override {
    bool has_seeds = false;
    for (const auto& [name, type] : op.inputs) has_seeds = has_seeds || (name == "seeds" && type == ValueType::kSeeds);
    if (!has_seeds) return fmt::format("op '{}' needs an input 'seeds: seeds' for a sampler check", op.name);
    if (op.output != ValueType::kInts) return fmt::format("op '{}' must return ints for a sampler check", op.name);
    if (test.expect || test.expects_invalid_argument) return "a sampler check takes neither 'expect' nor 'throws'";
    for (const auto& [key, value] : test.check_args.items()) {
      if (key == "probs_op" && value.is_string()) continue;
      if (key == "draws" && value.is_number_integer() && value.get<std::int64_t>() > 0 && !full_) continue;
      if (key == "least" && value.is_number() && value.get<double>() > 0 && value.get<double>() <= 1 && !full_)
        continue;
      if ((key == "draws" || key == "least") && !full_)
        return fmt::format("check_args.{} must be {}", key,
                           key == "draws" ? "a whole number of draws above 0" : "a probability above 0 and at most 1");
      return fmt::format("unexpected check_args.{} (expected probs_op{})", key, full_ ? "" : ", and draws or least");
    }
    if (test.check_args.contains("draws") && test.check_args.contains("least"))
      return "check_args.draws and check_args.least exclude each other: least sizes the draws";
    if (!test.check_args.contains("probs_op")) return "check_args.probs_op must name the op giving the probabilities";
    return std::nullopt;
  }

  TestResult run(CheckContext& context) const override {
    const TestCase& test = context.test;
    TestResult result = start_result(test);
    json probs_json = context.reference(test.check_args["probs_op"].get<std::string>(), test.input);
    std::vector<double> probs = doubles_of(probs_json);
    // sampler_support with a stated number of draws checks one way only.
    const bool coverage = !full_ && !test.check_args.contains("draws");
    const double least = test.check_args.value("least", kDetectableDeviation);
    std::int64_t draws = full_      ? draws_for_sequential_test(probs, kFalseRejectRate, kFirstBatch)
                         : coverage ? draws_for_coverage(probs, least)
                                    : test.check_args["draws"].get<std::int64_t>();

    std::vector<std::uint64_t> seeds = case_seeds(context, static_cast<std::size_t>(draws));

    std::vector<int> tokens;
    tokens.reserve(seeds.size());
    std::vector<std::int64_t> counts(probs.size(), 0);
    int looks = 0, accept_looks = 0;
    for (std::size_t start = 0; start < seeds.size();) {
      // A small first batch: a wrong sampler is usually caught by it.
      std::size_t size = std::min(seeds.size() - start, start == 0 ? kFirstBatch : kSeedsPerRequest);
      std::vector<std::uint64_t> batch(seeds.begin() + static_cast<long>(start),
                                       seeds.begin() + static_cast<long>(start + size));
      start += size;
      std::vector<int> got;
      if (!draw(context, batch, &got, &result)) return result;
      if (auto bad = check_support(probs, batch, got)) {
        result.returned = batch_histogram(probs.size(), got);  // to match against known mistakes
        return fail(&result, *bad, "zero_probability");
      }
      tokens.insert(tokens.end(), got.begin(), got.end());
      for (int token : got) ++counts[static_cast<std::size_t>(token)];
      const bool first_batch = start == size;
      if (first_batch && !deterministic(context, probs, seeds, tokens, &result)) return result;
      if (full_ && start < seeds.size() && looks++ < kMaxEarlyLooks) {
        FitResult early = chi_square_fit(probs, counts, early_look_rate(kFalseRejectRate));
        if (early.rejected) return misfit(early, tokens.size(), draws, counts, &result);
      }
      if (full_ && start < seeds.size() && accept_looks++ < kMaxAcceptLooks &&
          fits_within(probs, counts, kDetectableDeviation, accept_look_miss_rate(kMissRate)))
        return result;
    }
    if (coverage) {
      for (std::size_t token = 0; token < probs.size(); ++token)
        if (probs[token] >= least && counts[token] == 0) {
          result.returned = counts;  // the histogram, to match against known mistakes
          return fail(&result,
                      fmt::format("token {} never came up in {} seeded draws, though its probability is {:.4f}; a "
                                  "correct sampler misses a token that likely so often less than once in ten "
                                  "million runs (is the token kept?)",
                                  token, draws, probs[token]),
                      "distribution");
        }
    }
    if (!full_) return result;

    FitResult fit = chi_square_fit(probs, counts, final_look_rate(kFalseRejectRate));
    if (fit.rejected) return misfit(fit, tokens.size(), draws, counts, &result);
    return result;
  }

 private:
  // The first seeds again, in reverse order and in a request of their own,
  // right after the first batch: a sampler that ignores its seed, or keeps
  // state between calls, differs. A quarter of a small draw is plenty, and
  // never fewer than catch such a sampler with probability 0.999 (it
  // differs on a repeat with the probability that two draws differ): a case
  // of few draws is one where each costs a full pass over a large
  // vocabulary. False (verdict in *result) when not.
  static bool deterministic(CheckContext& context, const std::vector<double>& probs,
                            const std::vector<std::uint64_t>& seeds, const std::vector<int>& tokens,
                            TestResult* result) {
    const std::int64_t needed = repeats_to_see_an_ignored_seed(probs);
    const std::size_t at_least = needed < 0 ? 0 : static_cast<std::size_t>(needed);  // < 0: no repeat can tell
    std::size_t repeats = std::min({kRepeatedSeeds, tokens.size(), std::max(at_least, seeds.size() / 4)});
    std::vector<std::uint64_t> again(seeds.rend() - static_cast<long>(repeats), seeds.rend());
    std::vector<int> redrawn;
    if (!draw(context, again, &redrawn, result)) return false;
    for (std::size_t i = 0; i < again.size(); ++i) {
      int first = tokens[repeats - 1 - i];
      if (redrawn[i] != first) {
        fail(result,
             fmt::format("not deterministic in its seed: seed {} gave token {} once and token {} "
                         "when asked again (seed a generator from the seed, once per call)",
                         again[i], first, redrawn[i]),
             "nondeterministic");
        return false;
      }
    }
    return true;
  }

  // The verdict of a rejected fit after `drawn` of the case's `draws`.
  static TestResult misfit(const FitResult& fit, std::size_t drawn, std::int64_t draws,
                           const std::vector<std::int64_t>& counts, TestResult* result) {
    result->returned = counts;  // the histogram, to match against known mistakes
    std::string over =
        static_cast<std::int64_t>(drawn) == draws
            ? fmt::format("over {} seeded draws", draws)
            : fmt::format("over the first {} of {} seeded draws: the test stops once it rejects", drawn, draws);
    return fail(result,
                fmt::format("the draws do not follow the expected distribution: token {} came up with frequency "
                            "{:.4f}, expected {:.4f} (chi-square {:.1f} > threshold {:.1f} for {} degrees of "
                            "freedom at a false-reject rate of {:g}, {})",
                            fit.worst_category, fit.worst_observed, fit.worst_expected, fit.statistic, fit.threshold,
                            fit.degrees_of_freedom, kFalseRejectRate, over),
                "distribution");
  }

  // Asks the learner's sampler for one token per seed; false (with the
  // verdict in *result) when the call did not return a list of them.
  static bool draw(CheckContext& context, const std::vector<std::uint64_t>& seeds, std::vector<int>* tokens,
                   TestResult* result) {
    json args = context.test.input;
    args["seeds"] = seeds;
    const Request request(context.test.op, args);
    CallResult call = call_learner(context, request, result);
    if (verdict_for_unusual_call(call, context, request, result)) {
      name_failing_seed(context, "seeds", seeds, result);
      return false;
    }
    if (!call.value.is_array() || call.value.size() != seeds.size()) {
      fail(result, "the harness got no token list back (the sampler's results were lost)", "malformed");
      return false;
    }
    for (const json& token : call.value) {
      if (!is_int(token))  // a sampler returns an int
        return fail(result, "a sampler returned something other than a token id", "malformed"), false;
      tokens->push_back(token.get<int>());
    }
    return true;
  }

  // How often each token came up in `tokens`; tokens outside [0, size) all
  // count in one last category.
  static std::vector<std::int64_t> batch_histogram(std::size_t size, const std::vector<int>& tokens) {
    std::vector<std::int64_t> counts(size + 1, 0);
    for (int token : tokens) ++counts[token >= 0 && static_cast<std::size_t>(token) < size ? token : size];
    return counts;
  }

  static std::optional<std::string> check_support(const std::vector<double>& probs,
                                                  const std::vector<std::uint64_t>& seeds,
                                                  const std::vector<int>& tokens) {
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      int token = tokens[i];
      if (token < 0 || static_cast<std::size_t>(token) >= probs.size())
        return fmt::format("seed {} gave token {}, outside [0, {})", seeds[i], token, probs.size());
      if (probs[static_cast<std::size_t>(token)] == 0)
        return fmt::format(
            "seed {} gave token {}, whose probability is 0 (it was filtered out); "
            "a sampler must draw only from the kept tokens",
            seeds[i], token);
    }
    return std::nullopt;
  }

  bool full_;
};
}  // namespace

const Checker& distribution_checker() {
  static const SamplerChecker checker(/*full=*/true);
  return checker;
}

const Checker& sampler_support_checker() {
  static const SamplerChecker checker(/*full=*/false);
  return checker;
}

}  // namespace judge
