// The sampled modes of `judge try`: the op drawn over many seeds on both
// sides, tallied the way its check judges it (try_session.hpp).
//   sampler     one token a seed, against the reference's probs_op;
//   laws        speculative rounds with toy models, against the three laws
//               the speculative checker tests (check/speculative_laws.hpp);
//   seed_sweep  an op of one seed, once a seed: whole outputs, against the
//               reference's (no law is known in the judge).
// The learner's draws are also asked again for their first seeds, in
// reverse order, to see that the same seed gives the same answer.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>
#include <map>

#include "check/compare.hpp"
#include "check/speculative_laws.hpp"
#include "check/stats.hpp"
#include "judging/try_session.hpp"
#include "util/errors.hpp"

namespace judge {
namespace {
using nlohmann::json;

constexpr std::size_t kTrySeedsPerRequest = 8000;
constexpr std::size_t kShownSeeds = 5;
constexpr std::size_t kTryRepeatedSeeds = 500;  // a seeds op: one request
constexpr std::size_t kRepeatedCalls = 25;      // a seed op: one call each

// One side's calls: false, with what happened in *side, when one did not
// return a value.
using Ask = std::function<bool(const Request&, TrySide*)>;

// Each seed's answer, asked of one side; false (why in *side) at the
// first call that did not return them.
bool draw(const TryableOp& op, const json& args, const std::vector<std::uint64_t>& seeds, const Ask& ask,
          std::vector<json>* answers, TrySide* side) {
  const bool many = op.seed_input == "seeds";
  for (std::size_t start = 0; start < seeds.size();) {
    const std::size_t size = many ? std::min(kTrySeedsPerRequest, seeds.size() - start) : 1;
    json call_args = args;
    if (many)
      call_args["seeds"] = std::vector<std::uint64_t>(seeds.begin() + static_cast<long>(start),
                                                      seeds.begin() + static_cast<long>(start + size));
    else
      call_args["seed"] = seeds[start];
    if (!ask(Request(op.op->name, call_args), side)) return false;
    if (!many) {
      answers->push_back(std::move(side->value));
    } else if (side->value.is_array() && side->value.size() == size) {
      for (json& answer : side->value) answers->push_back(std::move(answer));
    } else {
      side->returned = false;
      side->verdict = Verdict::kRuntimeError;
      side->message = fmt::format("the harness got no list of {} answers back, one a seed", size);
      return false;
    }
    side->value = nullptr;
    start += size;
  }
  return true;
}

// Whether the learner gives its first answers again for the same seeds,
// asked in reverse order; false with the first difference in *result.
bool deterministic(TrySession& session, const TryableOp& op, const json& args, const std::vector<std::uint64_t>& seeds,
                   const std::vector<json>& answers, TryResult* result) {
  const std::size_t repeats =
      op.seed_input == "seeds"
          ? std::min({kTryRepeatedSeeds, seeds.size(), std::max<std::size_t>(25, seeds.size() / 4)})
          : std::min(kRepeatedCalls, seeds.size());
  std::vector<std::uint64_t> again(seeds.rend() - static_cast<long>(repeats), seeds.rend());
  std::vector<json> redrawn;
  TrySide side;
  if (!draw(
          op, args, again, [&](const Request& r, TrySide* s) { return session.learner_call(r, s); }, &redrawn, &side)) {
    result->yours = side;
    return false;
  }
  for (std::size_t i = 0; i < again.size(); ++i) {
    const json& first = answers[repeats - 1 - i];
    if (redrawn[i] == first) continue;
    result->nondeterminism = fmt::format("seed {} gave {} the first time and {} when asked again", again[i],
                                         brief(first), brief(redrawn[i]));
    return false;
  }
  return true;
}

// Fills a tally's fit against known probabilities (counts over the same categories).
void fit_expected(const std::vector<double>& probs, const std::vector<std::int64_t>& counts, double rate,
                  Tally* tally) {
  FitResult fit = chi_square_fit(probs, counts, rate);
  tally->against_expected = true;
  tally->statistic = fit.statistic;
  tally->degrees_of_freedom = fit.degrees_of_freedom;
  tally->p_value = chi_square_upper_tail(fit.statistic, fit.degrees_of_freedom);
  tally->rejected_below = rate;
  tally->rejected = fit.rejected;
}

// A tally over categories of known probability; `label` names category c.
Tally expected_tally(std::string title, const std::vector<double>& probs, const std::vector<std::int64_t>& yours,
                     const std::vector<std::int64_t>& reference, double rate,
                     const std::function<std::string(int)>& label) {
  Tally tally;
  tally.title = std::move(title);
  for (std::int64_t count : yours) tally.draws += count;
  for (std::size_t c = 0; c < probs.size(); ++c) {
    if (probs[c] == 0 && yours[c] == 0 && reference[c] == 0) continue;
    tally.rows.push_back({label(static_cast<int>(c)), probs[c], yours[c], reference[c]});
    if (probs[c] == 0 && yours[c] > 0)
      tally.impossible.push_back(fmt::format("{} ({} draws)", label(static_cast<int>(c)), yours[c]));
  }
  std::stable_sort(tally.rows.begin(), tally.rows.end(),
                   [](const TallyRow& a, const TallyRow& b) { return *a.expected > *b.expected; });
  fit_expected(probs, yours, rate, &tally);
  return tally;
}

// The sampler: each answer a token id, against the reference's probs_op.
void tally_tokens(const std::vector<double>& probs, const std::vector<json>& yours, const std::vector<json>& reference,
                  TryResult* result) {
  const std::size_t vocab = probs.size();
  auto counts = [&](const std::vector<json>& answers) {
    std::vector<std::int64_t> out(vocab + 1, 0);  // the last: outside [0, vocab)
    for (const json& a : answers) {
      bool in_range = a.is_number_integer() && a.get<std::int64_t>() >= 0 &&
                      a.get<std::int64_t>() < static_cast<std::int64_t>(vocab);
      ++out[in_range ? a.get<std::size_t>() : vocab];
    }
    return out;
  };
  std::vector<double> with_outside = probs;
  with_outside.push_back(0);
  result->tallies.push_back(
      expected_tally("token", with_outside, counts(yours), counts(reference), kFalseRejectRate, [vocab](int c) {
        return static_cast<std::size_t>(c) == vocab ? fmt::format("outside [0, {})", vocab)
                                                    : fmt::format("token {}", c);
      }));
}

// Speculative rounds: the checker's three laws. False (why in *side) when
// a learner's round breaks a rule every round follows.
bool tally_laws(const Tables& tables, const std::vector<std::uint64_t>& seeds, const std::vector<json>& yours,
                const std::vector<json>& reference, TryResult* result) {
  std::vector<Law> laws = laws_of(tables);
  auto counts = [&](const std::vector<json>& answers, TrySide* side) {
    std::vector<std::vector<std::int64_t>> out;
    for (const Law& law : laws) out.emplace_back(law.probs.size(), 0);
    for (std::size_t i = 0; i < answers.size(); ++i) {
      std::string error, kind;
      std::optional<Observation> seen = observe(tables, seeds[i], answers[i], &error, &kind);
      if (!seen && !side) throw JudgeFault{"the reference solution's rounds break a rule: " + error};
      if (!seen) {
        side->returned = false;
        side->verdict = Verdict::kWrongAnswer;
        side->message = error;
        return out;
      }
      ++out[0][static_cast<std::size_t>(seen->first)];
      ++out[1][static_cast<std::size_t>(seen->accepted)];
      ++out[2][static_cast<std::size_t>(seen->first * tables.vocab + seen->second)];
    }
    return out;
  };
  TrySide broken;
  broken.returned = true;
  std::vector<std::vector<std::int64_t>> mine = counts(yours, &broken);
  if (!broken.returned) {
    result->yours = broken;
    return false;
  }
  std::vector<std::vector<std::int64_t>> theirs = counts(reference, nullptr);
  const char* titles[kLaws] = {"first emitted token", "drafts accepted in the first round", "first two emitted tokens"};
  for (int l = 0; l < kLaws; ++l)
    result->tallies.push_back(
        expected_tally(titles[l], laws[l].probs, mine[l], theirs[l], kFalseRejectRate / kLaws, laws[l].label));
  return true;
}

// A seed op: whole outputs, against the reference's by a test of homogeneity.
void tally_outputs(const std::vector<json>& yours, const std::vector<json>& reference, TryResult* result) {
  std::map<std::string, std::size_t> index;
  std::vector<json> outputs;
  std::vector<std::int64_t> mine, theirs;
  auto count = [&](const json& answer, std::vector<std::int64_t>* side) {
    auto [at, added] = index.emplace(answer.dump(), outputs.size());
    if (added) outputs.push_back(answer), mine.push_back(0), theirs.push_back(0);
    ++(*side)[at->second];
  };
  for (const json& answer : reference) count(answer, &theirs);
  for (const json& answer : yours) count(answer, &mine);
  Tally tally;
  tally.title = "output";
  tally.draws = static_cast<std::int64_t>(yours.size());
  for (std::size_t c = 0; c < outputs.size(); ++c)
    tally.rows.push_back({brief(outputs[c]), std::nullopt, mine[c], theirs[c]});
  std::stable_sort(tally.rows.begin(), tally.rows.end(), [](const TallyRow& a, const TallyRow& b) {
    return a.reference != b.reference ? a.reference > b.reference : a.yours > b.yours;
  });
  HomogeneityResult test = homogeneity_test(mine, theirs);
  tally.statistic = test.statistic;
  tally.degrees_of_freedom = test.degrees_of_freedom;
  tally.p_value = test.p_value;
  tally.rejected_below = kFalseRejectRate;
  tally.rejected = test.p_value < kFalseRejectRate;
  result->tallies.push_back(std::move(tally));
}

void decide_draws(const TryableOp& op, std::int64_t draws, TryResult* result) {
  std::vector<std::string> problems;
  if (!result->yours.returned)
    problems.push_back(fmt::format("yours ended in {}", verdict_name(result->yours.verdict)));
  if (result->deterministic == false && !result->nondeterminism.empty())
    problems.push_back("not deterministic in its seed: " + result->nondeterminism);
  for (const Tally& tally : result->tallies) {
    if (!tally.impossible.empty())
      problems.push_back(
          fmt::format("{}: yours drew some of probability 0: {}", tally.title, fmt::join(tally.impossible, ", ")));
    if (tally.rejected)
      problems.push_back(
          fmt::format("{}: your frequencies do not fit {} (chi-square {:.1f} for {} degrees of freedom, "
                      "p-value {:.2g} < {:.3g})",
                      tally.title, tally.against_expected ? "the expected probabilities" : "the reference's",
                      tally.statistic, tally.degrees_of_freedom, tally.p_value, tally.rejected_below));
  }
  result->agree = problems.empty();
  const char* law = op.mode == TryMode::kSampler ? "the expected probabilities"
                    : op.mode == TryMode::kLaws  ? "every law the judge tests"
                                                 : "the reference's outputs";
  result->difference = result->agree ? fmt::format(
                                           "none: over {} seeds your draws fit {}, and the same seed gives "
                                           "the same answer",
                                           draws, law)
                                     : fmt::format("{}", fmt::join(problems, "; "));
}
}  // namespace

bool try_draws(TrySession& session, const TryableOp& op, std::int64_t draws, TryResult* result) {
  const json& args = session.test().input;
  std::vector<double> probs;
  if (op.mode == TryMode::kSampler) {
    TrySide side = session.reference_call(Request(op.probs_op, args));
    if (side.threw_invalid_argument) return false;
    if (!side.value.is_array()) throw JudgeFault{fmt::format("{}: op {} returned no list", op.probs_op, op.probs_op)};
    for (const json& p : side.value) probs.push_back(p.is_number() ? p.get<double>() : 0.0);
  }
  const std::vector<std::uint64_t> seeds = session.seeds(static_cast<std::size_t>(draws));
  std::vector<json> reference, yours;
  TrySide reference_side;
  if (!draw(
          op, args, seeds, [&](const Request& r, TrySide* s) { return (*s = session.reference_call(r)).returned; },
          &reference, &reference_side)) {
    if (reference.empty() && reference_side.threw_invalid_argument) return false;
    throw JudgeFault{fmt::format("{}: the reference solution {} for some seeds only", session.problem().slug,
                                 reference_side.message)};
  }
  result->draws = draws;
  result->yours.returned = true;
  const bool drawn = draw(
      op, args, seeds, [&](const Request& r, TrySide* s) { return session.learner_call(r, s); }, &yours,
      &result->yours);
  for (std::size_t i = 0; i < kShownSeeds && i < yours.size(); ++i)
    result->seeds.push_back({seeds[i], yours[i], reference[i]});
  if (drawn) {
    result->deterministic = deterministic(session, op, args, seeds, yours, result);
    if (op.mode == TryMode::kSampler) {
      tally_tokens(probs, yours, reference, result);
    } else if (op.mode == TryMode::kLaws) {
      Tables tables;
      std::string error;
      if (!read_tables(args["model"], &tables, &error)) throw SpecError{"--input: " + error};
      tally_laws(tables, seeds, yours, reference, result);
    } else {
      tally_outputs(yours, reference, result);
    }
  }
  decide_draws(op, draws, result);
  return true;
}

}  // namespace judge
