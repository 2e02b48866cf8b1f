// Reading a speculative case's toy models and computing the laws of its
// rounds (speculative_laws.hpp).
#include "check/speculative_laws.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "check/compare.hpp"
#include "run/reply.hpp"

namespace judge {
namespace {
using nlohmann::json;

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

std::string token_list_text(const std::vector<int>& tokens) {
  std::string out;
  for (int t : tokens) out += (out.empty() ? "" : ", ") + std::to_string(t);
  return "[" + out + "]";
}

bool int_list(const json& value, std::vector<int>* out) {
  if (!value.is_array()) return false;
  for (const json& item : value) {
    if (!is_int(item)) return false;  // a token id, which the learner's code returns as an int
    out->push_back(item.get<int>());
  }
  return true;
}
}  // namespace

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
                                          token_list_text(drafts), token_list_text(emitted));
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

}  // namespace judge
