// See speculative_support.hpp.
#include <judge_harness/input_watch_eigen.hpp>
#include <judge_harness/runner.hpp>

#include <judge_harness/speculative_support.hpp>
#include "mix64.hpp"

#include <cmath>
#include <optional>

namespace judge_harness::speculative_support {
namespace {

struct Bigram {
  std::vector<double> start;
  std::vector<std::vector<double>> next;
  // The distribution of the token after `context` (all tokens so far).
  const std::vector<double>& after(const std::vector<int>& context) const {
    return context.empty() ? start : next[static_cast<std::size_t>(context.back())];
  }
};

Bigram read_bigram(const Value& v, int* vocab) {
  Bigram b;
  b.start = v.at("start").as_doubles();
  for (const Value& row : v.at("next").items()) b.next.push_back(row.as_doubles());
  if (*vocab == 0) *vocab = static_cast<int>(b.start.size());
  if (*vocab < 1 || static_cast<int>(b.start.size()) != *vocab || static_cast<int>(b.next.size()) != *vocab)
    throw BadRequest{"speculate_many: a table is not V x V"};
  for (const auto& row : b.next)
    if (static_cast<int>(row.size()) != *vocab) throw BadRequest{"speculate_many: a table is not V x V"};
  return b;
}

// Inverse CDF with a uniform in [0, 1); only tokens of positive probability.
int draw(const std::vector<double>& probs, std::uint64_t bits) {
  double u = static_cast<double>(bits >> 11) * 0x1.0p-53;
  double total = 0;
  for (double p : probs) total += p;
  u *= total;
  double cumulative = 0;
  int last = -1;
  for (int t = 0; t < static_cast<int>(probs.size()); ++t) {
    if (probs[t] <= 0) continue;
    cumulative += probs[t];
    last = t;
    if (u < cumulative) return t;
  }
  if (last < 0) throw BadRequest{"speculate_many: a distribution with no mass"};
  return last;
}

}  // namespace

std::vector<int> watched_call(LearnerAccept* learner_function, const std::vector<int>& draft_tokens,
                              const Eigen::MatrixXd& draft_probs, const Eigen::MatrixXd& target_probs,
                              std::uint64_t seed) {
  const InputWatch watch_tokens("draft_tokens", draft_tokens);
  const InputWatch watch_draft = watch_eigen("draft_probs", draft_probs);
  const InputWatch watch_target = watch_eigen("target_probs", target_probs);
  return learner_function(draft_tokens, draft_probs, target_probs, seed);
}

Value speculate_many(const Value& args, LearnerAccept* learner_function) {
  const Value& model = args.at("model");
  const int k = static_cast<int>(model.at("k").as_int());
  int vocab = 0;
  const Bigram draft = read_bigram(model.at("draft"), &vocab);
  const Bigram target = read_bigram(model.at("target"), &vocab);
  if (k < 0) throw BadRequest{"speculate_many: k < 0"};
  Value results = Value::list();
  for (std::uint64_t seed : judge_harness::arg_seeds(args, "seeds")) {
    std::uint64_t draft_state = mix64(seed ^ 0xd1b54a32d192ed03ull);  // the harness's own stream
    const std::uint64_t learner_base = mix64(seed ^ 0x8bb84b93962eacc9ull);
    std::vector<int> context;
    Value rounds = Value::list();
    for (std::uint64_t round = 0; context.size() < 2; ++round) {
      std::vector<int> drafts;
      Eigen::MatrixXd q(k, vocab), p(k + 1, vocab);
      std::vector<int> prefix = context;
      for (int i = 0; i <= k; ++i) {
        const std::vector<double>& p_row = target.after(prefix);
        for (int t = 0; t < vocab; ++t) p(i, t) = p_row[t];
        if (i == k) break;
        const std::vector<double>& q_row = draft.after(prefix);
        for (int t = 0; t < vocab; ++t) q(i, t) = q_row[t];
        draft_state += 0x9e3779b97f4a7c15ull;
        int x = draw(q_row, mix64(draft_state));
        drafts.push_back(x);
        prefix.push_back(x);
      }
      std::vector<int> emitted = watched_call(learner_function, drafts, q, p, mix64(learner_base + round));
      rounds.push(Value::list().push(Value::ints(drafts)).push(Value::ints(emitted)));
      // The judge checks the rounds; stop at anything that cannot continue.
      bool usable = !emitted.empty() && static_cast<int>(emitted.size()) <= k + 1;
      for (int t : emitted) usable = usable && t >= 0 && t < vocab;
      if (!usable) break;
      context.insert(context.end(), emitted.begin(), emitted.end());
    }
    results.push(rounds);
  }
  return results;
}

namespace {
// Whether each row of `rows` is a distribution: entries >= 0 summing to 1.
bool rows_are_distributions(const Eigen::MatrixXd& rows) {
  for (Eigen::Index r = 0; r < rows.rows(); ++r) {
    if (!(rows.row(r).minCoeff() >= 0)) return false;
    if (!(std::fabs(rows.row(r).sum() - 1) <= 1e-9)) return false;
  }
  return true;
}

// The only token with mass; -1 when there are none or several.
int only_token(const Eigen::VectorXd& weights) {
  int token = -1;
  for (Eigen::Index t = 0; t < weights.size(); ++t) {
    if (!(weights(t) > 0)) continue;
    if (token >= 0) return -1;
    token = static_cast<int>(t);
  }
  return token;
}
}  // namespace

std::optional<std::vector<int>> fixed_answer(const std::vector<int>& draft_tokens, const Eigen::MatrixXd& draft_probs,
                                             const Eigen::MatrixXd& target_probs) {
  const auto k = static_cast<Eigen::Index>(draft_tokens.size());
  const Eigen::Index vocab = target_probs.cols();
  if (vocab < 1 || target_probs.rows() != k + 1 || draft_probs.rows() != k || draft_probs.cols() != vocab)
    return std::nullopt;
  if (!rows_are_distributions(target_probs) || !rows_are_distributions(draft_probs)) return std::nullopt;
  for (Eigen::Index i = 0; i < k; ++i) {
    const int x = draft_tokens[static_cast<std::size_t>(i)];
    if (x < 0 || x >= vocab || !(draft_probs(i, x) > 0)) return std::nullopt;  // x_i was drawn from q_i
  }
  std::vector<int> answer;
  for (Eigen::Index i = 0; i < k; ++i) {
    const int x = draft_tokens[static_cast<std::size_t>(i)];
    const double p = target_probs(i, x), q = draft_probs(i, x);
    if (p >= q) {  // min(1, p / q) = 1
      answer.push_back(x);
      continue;
    }
    if (p > 0) return std::nullopt;  // accepted with probability p / q: up to the draws
    const int token = only_token((target_probs.row(i) - draft_probs.row(i)).cwiseMax(0.0).transpose());
    if (token < 0) return std::nullopt;
    answer.push_back(token);
    return answer;
  }
  const int bonus = only_token(target_probs.row(k).transpose());
  if (bonus < 0) return std::nullopt;
  answer.push_back(bonus);
  return answer;
}

}  // namespace judge_harness::speculative_support
