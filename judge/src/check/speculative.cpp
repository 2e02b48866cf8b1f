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
//      stops early (the rate spent over the looks, stats.hpp):
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
// Tables: {k: K, draft: {start: [V], next: [[V] x V]}, target: {start, next}};
// `start` is the distribution of the first token, next[t] the one after t.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

#include "check/checker.hpp"
#include "check/compare.hpp"
#include "check/registry.hpp"
#include "check/stats.hpp"
#include "spec/typed_values.hpp"
#include "util/errors.hpp"

namespace judge {
namespace {
using nlohmann::json;

constexpr std::size_t kSeedsPerRequest = 8000;
constexpr std::size_t kRepeatedSeeds = 300;
constexpr std::int64_t kDefaultFixedSeeds = 200;
constexpr int kLaws = 3;

struct Bigram {
  std::vector<double> start;
  std::vector<std::vector<double>> next;
  // The distribution after a token; -1: the first token.
  const std::vector<double>& after(int token) const {
    return token < 0 ? start : next[static_cast<std::size_t>(token)];
  }
};

struct Tables {
  int k = 0;
  int vocab = 0;
  Bigram draft, target;
};

bool read_distribution(const json& row, int vocab, std::vector<double>* out, std::string* error) {
  if (!row.is_array() || static_cast<int>(row.size()) != vocab)
    return *error = fmt::format("every table row needs {} probabilities", vocab), false;
  double total = 0;
  for (const json& p : row) {
    if (!p.is_number() || !(p.get<double>() >= 0)) return *error = "probabilities must be numbers >= 0", false;
    out->push_back(p.get<double>());
    total += p.get<double>();
  }
  if (std::fabs(total - 1) > 1e-9)
    return *error = fmt::format("a table row sums to {}, not 1", format_number(total)), false;
  return true;
}

bool read_bigram(const json& table, int vocab, Bigram* out, std::string* error) {
  if (!table.is_object() || !table.contains("start") || !table.contains("next") || table.size() != 2)
    return *error = "draft and target must each be {start, next}", false;
  if (!read_distribution(table["start"], vocab, &out->start, error)) return false;
  const json& next = table["next"];
  if (!next.is_array() || static_cast<int>(next.size()) != vocab)
    return *error = fmt::format("next must have one row per token ({})", vocab), false;
  for (const json& row : next) {
    out->next.emplace_back();
    if (!read_distribution(row, vocab, &out->next.back(), error)) return false;
  }
  return true;
}

bool read_tables(const json& model, Tables* tables, std::string* error) {
  if (!model.is_object() || !model.contains("k") || !model.contains("draft") || !model.contains("target") ||
      model.size() != 3)
    return *error = "input.model must be {k, draft, target}", false;
  if (!model["k"].is_number_integer() || model["k"].get<int>() < 0 || model["k"].get<int>() > 16)
    return *error = "model.k must be an integer from 0 to 16", false;
  tables->k = model["k"].get<int>();
  const json& start =
      model["target"].is_object() && model["target"].contains("start") ? model["target"]["start"] : json();
  if (!start.is_array() || start.empty() || start.size() > 64)
    return *error = "model.target.start must list 1 to 64 probabilities", false;
  tables->vocab = static_cast<int>(start.size());
  return read_bigram(model["draft"], tables->vocab, &tables->draft, error) &&
         read_bigram(model["target"], tables->vocab, &tables->target, error);
}

// A law the emitted tokens must follow: category probabilities and names.
struct Law {
  std::string what;  // for messages
  std::vector<double> probs;
  std::function<std::string(int)> label;
};

// The law of the number of drafts accepted in one round that starts with no
// context: a draft x after state s is accepted with probability
// min(p(x|s), q(x|s)) / q(x|s), so the mass of an accepted prefix is the
// product of min(p, q) along it; a round that has accepted j drafts stops
// there with probability 1 - alpha(s), alpha(s) = sum over x of min(p, q).
std::vector<double> accepted_count_law(const Tables& t) {
  std::vector<double> law(static_cast<std::size_t>(t.k) + 1, 0.0);
  std::vector<double> mass(static_cast<std::size_t>(t.vocab) + 1, 0.0);  // by last token; index vocab: start
  mass[static_cast<std::size_t>(t.vocab)] = 1.0;
  for (int j = 0; j < t.k; ++j) {
    std::vector<double> next(mass.size(), 0.0);
    for (int s = 0; s <= t.vocab; ++s) {
      double m = mass[static_cast<std::size_t>(s)];
      if (m == 0) continue;
      int state = s == t.vocab ? -1 : s;
      const std::vector<double>& p = t.target.after(state);
      const std::vector<double>& q = t.draft.after(state);
      double alpha = 0;
      for (int x = 0; x < t.vocab; ++x) {
        double both = std::min(p[x], q[x]);
        alpha += both;
        next[static_cast<std::size_t>(x)] += m * both;
      }
      law[static_cast<std::size_t>(j)] += m * std::max(0.0, 1.0 - alpha);
    }
    mass = next;
  }
  for (double m : mass) law[static_cast<std::size_t>(t.k)] += m;
  // Rounding can leave a category that must be impossible at 1e-17: snap it.
  for (double& p : law)
    if (p < 1e-12) p = 0;
  double total = 0;
  for (double p : law) total += p;
  for (double& p : law) p /= total;
  return law;
}

std::vector<Law> laws_of(const Tables& t) {
  const int v = t.vocab;
  std::vector<Law> laws(kLaws);
  laws[0].what = "the first emitted token does not follow the target's first distribution p_0";
  laws[0].probs = t.target.start;
  laws[0].label = [](int c) { return fmt::format("token {}", c); };
  laws[1].what = fmt::format(
      "the number of drafts accepted in a round does not follow the law of accepting draft i with probability "
      "min(1, p_i(x_i) / q_i(x_i)) and stopping at the first rejection");
  laws[1].probs = accepted_count_law(t);
  laws[1].label = [k = t.k](int c) { return fmt::format("{} of {} drafts accepted", c, k); };
  laws[2].what = "the first two emitted tokens do not follow the target's joint law p_0(a) * p(b | a)";
  for (int a = 0; a < v; ++a)
    for (int b = 0; b < v; ++b) laws[2].probs.push_back(t.target.start[a] * t.target.next[a][b]);
  laws[2].label = [v](int c) { return fmt::format("the pair ({}, {})", c / v, c % v); };
  return laws;
}

std::string tokens_text(const std::vector<int>& tokens) {
  std::string out;
  for (int t : tokens) out += (out.empty() ? "" : ", ") + std::to_string(t);
  return "[" + out + "]";
}

bool int_list(const json& value, std::vector<int>* out) {
  if (!value.is_array()) return false;
  for (const json& item : value) {
    if (!item.is_number_integer()) return false;
    out->push_back(item.get<int>());
  }
  return true;
}

// One seed's decoding, as the checker sees it.
struct Observation {
  int first = -1, second = -1, accepted = -1;
};

// Checks the rounds of one seed; the observation, or a message (in *error)
// and its failure kind (in *kind).
std::optional<Observation> observe(const Tables& t, std::uint64_t seed, const json& rounds, std::string* error,
                                   std::string* kind) {
  *kind = "structure";
  if (!rounds.is_array() || rounds.empty()) return *error = "the harness got no rounds back", std::nullopt;
  std::vector<int> emitted_all;
  Observation seen;
  int previous = -1;
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    std::vector<int> drafts, emitted;
    if (!rounds[r].is_array() || rounds[r].size() != 2 || !int_list(rounds[r][0], &drafts) ||
        !int_list(rounds[r][1], &emitted))
      return *error = "the harness returned a malformed round", std::nullopt;
    const std::string where = fmt::format("seed {}, round {} (drafts {}): returned {}", seed, r + 1,
                                          tokens_text(drafts), tokens_text(emitted));
    if (emitted.empty() || emitted.size() > drafts.size() + 1)
      return *error = fmt::format("{}: a round returns 1 to K+1 = {} tokens (the accepted drafts, then one more)",
                                  where, drafts.size() + 1),
             std::nullopt;
    for (int token : emitted)
      if (token < 0 || token >= t.vocab)
        return *error = fmt::format("{}: token {} is outside [0, {})", where, token, t.vocab), std::nullopt;
    for (std::size_t i = 0; i + 1 < emitted.size(); ++i)
      if (emitted[i] != drafts[i])
        return *error = fmt::format(
                   "{}: token {} is {} but draft {} was {}; every returned token but the last "
                   "must be the accepted draft at that position, and the round ends at the first "
                   "rejection",
                   where, i, emitted[i], i, drafts[i]),
               std::nullopt;
    for (int token : emitted) {
      if (t.target.after(previous)[static_cast<std::size_t>(token)] == 0) {
        *kind = "zero_probability";
        return *error = fmt::format("{}: token {} has target probability 0 {}; it must never be emitted", where, token,
                                    previous < 0 ? "as the first token" : fmt::format("after token {}", previous)),
               std::nullopt;
      }
      previous = token;
    }
    if (r == 0) seen.accepted = static_cast<int>(emitted.size()) - 1;
    emitted_all.insert(emitted_all.end(), emitted.begin(), emitted.end());
  }
  if (emitted_all.size() < 2) return *error = "the harness stopped before two tokens were emitted", std::nullopt;
  seen.first = emitted_all[0];
  seen.second = emitted_all[1];
  return seen;
}

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
        result.returned = got;
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
      draws = std::max(draws, draws_for_power(law.probs, kDetectableDeviation, final_look_rate(run.rate)));
    run.seeds = case_seeds(context, static_cast<std::size_t>(draws));
    for (const Law& law : run.laws) run.counts.emplace_back(law.probs.size(), 0);
    int looks = 0;
    for (std::size_t start = 0; start < run.seeds.size(); start += kSeedsPerRequest) {
      if (!observe_batch(context, start, &run, &result)) return result;
      // Determinism right away: a seed-ignoring round fails in one batch.
      if (start == 0 && !deterministic(context, run, &result)) return result;
      std::size_t seen = std::min(run.seeds.size(), start + kSeedsPerRequest);
      // An early look, so that a wrong round stops here (stats.hpp).
      if (seen < run.seeds.size() && looks++ < kMaxEarlyLooks &&
          laws_rejected(run, early_look_rate(run.rate), seen, &result))
        return result;
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
        seeds.begin() + static_cast<long>(std::min(seeds.size(), start + kSeedsPerRequest)));
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
                                replies.begin() + static_cast<long>(std::min(kRepeatedSeeds, replies.size())));
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

  // Tests the laws on the first `seen` seeds at `rate` each; true (verdict
  // in *result) when one is rejected.
  static bool laws_rejected(const LawRun& run, double rate, std::size_t seen, TestResult* result) {
    std::vector<std::string> failures;
    json histograms = json::array();
    std::string over = seen == run.seeds.size()
                           ? fmt::format("over {} seeds", seen)
                           : fmt::format("over the first {} of {} seeds: the test stops once it rejects", seen,
                                         run.seeds.size());
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
