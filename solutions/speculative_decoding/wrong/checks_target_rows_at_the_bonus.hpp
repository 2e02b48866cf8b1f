// Wrong: checks the number of target rows only when it draws the bonus
// token, the one place that reads row K. A round that ends at a rejection
// never gets there, so target_probs with K or K + 2 rows goes unnoticed and
// the call returns.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

inline std::vector<int> speculative_accept(const std::vector<int>& draft_tokens, const Eigen::MatrixXd& draft_probs,
                                           const Eigen::MatrixXd& target_probs, std::uint64_t seed) {
  const int k = static_cast<int>(draft_tokens.size());
  const int v = static_cast<int>(target_probs.cols());
  if (draft_probs.rows() != k || draft_probs.cols() != v) throw std::invalid_argument("draft_probs must be K x V");
  for (int x : draft_tokens)
    if (x < 0 || x >= v) throw std::invalid_argument("draft token out of range");

  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  auto pick = [&](std::vector<double> weights) {
    std::discrete_distribution<int> d(weights.begin(), weights.end());
    return d(rng);
  };

  std::vector<int> tokens;
  for (int i = 0; i < k; ++i) {
    const int x = draft_tokens[i];
    if (uniform(rng) < std::min(1.0, target_probs(i, x) / draft_probs(i, x))) {
      tokens.push_back(x);
      continue;
    }
    std::vector<double> residual(v);
    for (int t = 0; t < v; ++t) residual[t] = std::max(0.0, target_probs(i, t) - draft_probs(i, t));
    tokens.push_back(pick(residual));
    return tokens;
  }
  // Every draft accepted: the bonus token comes from row K.
  if (target_probs.rows() != k + 1) throw std::invalid_argument("target_probs must have K + 1 rows");
  std::vector<double> bonus(v);
  for (int t = 0; t < v; ++t) bonus[t] = target_probs(k, t);
  tokens.push_back(pick(bonus));
  return tokens;
}
