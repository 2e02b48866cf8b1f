// See beam_search_support.hpp.
#include <judge_harness/beam_search_support.hpp>
#include <judge_harness/input_watch.hpp>
#include <judge_harness/runner.hpp>

#include "mix64.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace judge_harness::beam_search_support {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

std::vector<double> log_of(const std::vector<double>& probs) {
  std::vector<double> out;
  for (double p : probs) {
    if (!(p >= 0 && p <= 1)) throw BadRequest{"a model probability is outside [0, 1]"};
    out.push_back(p > 0 ? std::log(p) : kNegInf);
  }
  return out;
}

struct Model {
  int vocab = 0;
  // table
  std::vector<double> fallback;
  std::vector<std::pair<std::vector<int>, std::vector<double>>> rows;
  // hashed
  bool hashed = false;
  std::uint64_t seed = 0;
  double scale = 1;
  std::vector<double> bias;

  std::vector<double> operator()(const std::vector<int>& sequence) const {
    if (hashed) {
      std::uint64_t h = mix64(seed);
      for (int token : sequence) h = mix64(h ^ static_cast<std::uint64_t>(static_cast<std::uint32_t>(token)));
      std::vector<double> logits(static_cast<std::size_t>(vocab));
      double top = kNegInf;
      for (int t = 0; t < vocab; ++t) {
        double u = static_cast<double>(mix64(h + static_cast<std::uint64_t>(t)) >> 11) * 0x1.0p-52 - 1.0;
        logits[t] = scale * u + (bias.empty() ? 0.0 : bias[t]);
        top = std::max(top, logits[t]);
      }
      double total = 0;
      for (double z : logits) total += std::exp(z - top);
      const double log_total = top + std::log(total);
      for (double& z : logits) z -= log_total;
      return logits;
    }
    const std::vector<double>* best = &fallback;
    std::size_t best_length = 0;
    for (const auto& [context, log_probs] : rows) {
      if (context.size() > sequence.size() || (best != &fallback && context.size() <= best_length)) continue;
      if (std::equal(context.begin(), context.end(), sequence.end() - static_cast<long>(context.size()))) {
        best = &log_probs;
        best_length = context.size();
      }
    }
    return *best;
  }
};

Model read_model(const Value& description) {
  Model model;
  const std::string& kind = description.at("kind").as_string();
  model.vocab = static_cast<int>(description.at("vocab").as_int());
  if (model.vocab < 1) throw BadRequest{"vocab must be positive"};
  auto sized = [&](std::vector<double> v) {
    if (static_cast<int>(v.size()) != model.vocab) throw BadRequest{"a model row does not have vocab entries"};
    return v;
  };
  if (kind == "table") {
    model.fallback = log_of(sized(description.at("default").as_doubles()));
    if (description.has("rows"))
      for (const Value& row : description.at("rows").items())
        model.rows.emplace_back(row.at("context").as_ints(), log_of(sized(row.at("probs").as_doubles())));
  } else if (kind == "hashed") {
    model.hashed = true;
    model.seed = description.at("seed").as_uint();
    model.scale = description.at("scale").as_double();
    if (description.has("bias")) model.bias = sized(description.at("bias").as_doubles());
  } else {
    throw BadRequest{"unknown model kind '" + kind + "'"};
  }
  return model;
}

struct Search {
  Model model;
  std::vector<int> prompt;
  int beam_width, max_new_tokens, eos_id;
  double length_penalty;
};

Search read_search(const Value& args) {
  return Search{read_model(args.at("model")),
                judge_harness::arg_ints(args, "prompt"),
                judge_harness::arg_int(args, "beam_width"),
                judge_harness::arg_int(args, "max_new_tokens"),
                judge_harness::arg_int(args, "eos_id"),
                judge_harness::arg_number(args, "length_penalty")};
}

Hypothesis scored(std::vector<int> tokens, double log_prob, double length_penalty) {
  double score = log_prob / std::pow(static_cast<double>(tokens.size()), length_penalty);
  return Hypothesis{std::move(tokens), log_prob, score};
}

// The contract's final ranking: score, then log_prob, then smaller tokens.
bool ranks_before(const Hypothesis& a, const Hypothesis& b) {
  if (a.score != b.score) return a.score > b.score;
  if (a.log_prob != b.log_prob) return a.log_prob > b.log_prob;
  return a.tokens < b.tokens;
}

// Every sequence that ends in EOS within max_new_tokens or reaches
// max_new_tokens without it, by depth-first enumeration.
void enumerate(const Search& s, std::vector<int>& tokens, double log_prob, std::vector<Hypothesis>& out) {
  std::vector<int> context = s.prompt;
  context.insert(context.end(), tokens.begin(), tokens.end());
  const std::vector<double> log_probs = s.model(context);
  for (int t = 0; t < static_cast<int>(log_probs.size()); ++t) {
    if (!std::isfinite(log_probs[t])) continue;
    tokens.push_back(t);
    const double lp = log_prob + log_probs[t];
    if (t == s.eos_id || static_cast<int>(tokens.size()) == s.max_new_tokens) {
      out.push_back(scored(tokens, lp, s.length_penalty));
    } else {
      enumerate(s, tokens, lp, out);
    }
    tokens.pop_back();
    if (out.size() > 2000000) throw BadRequest{"exhaustive_search: too many sequences"};
  }
}

Value exhaustive_search_op(const Value& args) {
  Search s = read_search(args);
  if (s.beam_width < 1 || s.max_new_tokens < 1) throw BadRequest{"exhaustive_search needs a valid case"};
  std::vector<Hypothesis> all;
  std::vector<int> tokens;
  enumerate(s, tokens, 0.0, all);
  std::sort(all.begin(), all.end(), ranks_before);
  if (all.size() > static_cast<std::size_t>(s.beam_width)) all.resize(s.beam_width);
  return hypotheses_value(all);
}

Value greedy_search_op(const Value& args) {
  Search s = read_search(args);
  if (s.max_new_tokens < 1) throw BadRequest{"greedy_search needs a valid case"};
  std::vector<int> context = s.prompt, tokens;
  double log_prob = 0;
  while (static_cast<int>(tokens.size()) < s.max_new_tokens) {
    const std::vector<double> log_probs = s.model(context);
    int best = -1;
    for (int t = 0; t < static_cast<int>(log_probs.size()); ++t)
      if (std::isfinite(log_probs[t]) && (best < 0 || log_probs[t] > log_probs[best])) best = t;
    if (best < 0) break;
    tokens.push_back(best);
    context.push_back(best);
    log_prob += log_probs[best];
    if (best == s.eos_id) break;
  }
  return hypotheses_value({scored(tokens, log_prob, s.length_penalty)});
}

}  // namespace

Value hypotheses_value(const std::vector<Hypothesis>& hypotheses) {
  Value out = Value::list();
  for (const Hypothesis& h : hypotheses)
    out.push(Value::map()
                 .set("tokens", Value::ints(h.tokens))
                 .set("log_prob", Value::number(h.log_prob))
                 .set("score", Value::number(h.score)));
  return out;
}

Value call_learner(const Value& args, LearnerBeamSearch* learner) {
  Search s = read_search(args);
  auto model = std::make_shared<const Model>(std::move(s.model));
  LogProbFn fn = [model](const std::vector<int>& sequence) { return (*model)(sequence); };
  const InputWatch watch("prompt", s.prompt);
  return hypotheses_value(learner(fn, s.prompt, s.beam_width, s.max_new_tokens, s.eos_id, s.length_penalty));
}

bool register_oracles() {
  return register_operation("exhaustive_search", exhaustive_search_op) &&
         register_operation("greedy_search", greedy_search_op);
}

}  // namespace judge_harness::beam_search_support
