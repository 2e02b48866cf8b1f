// Known wrong (speculative_decoding): normalizes the residual max(0, p - q)
// by dividing by its sum again and again until the sum is exactly 1.0.
// Rounding need not ever give exactly 1.0: for p = [0.35, 0.3, 0.2, 0.15]
// and q = [0.25, 0.1, 0.15, 0.5] the residual comes back, after a few
// divisions, to values it had before while its sum is still one unit in the
// last place away from 1, so the loop never ends. Divide once, or draw in
// proportion to the unnormalized residual.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

namespace speculative_detail {
// Draws an index with probability weights[i] / sum(weights) by inverse CDF.
inline int draw(const Eigen::VectorXd& weights, std::mt19937_64& rng) {
  const double total = weights.sum();
  if (!(total > 0)) throw std::invalid_argument("speculative_accept: a distribution with no mass");
  const double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng) * total;
  double cumulative = 0.0;
  int last = -1;
  for (Eigen::Index t = 0; t < weights.size(); ++t) {
    if (weights(t) <= 0) continue;
    cumulative += weights(t);
    last = static_cast<int>(t);
    if (u < cumulative) return last;
  }
  return last;  // u landed past the last sum by rounding: the last token with mass
}
}  // namespace speculative_detail

inline std::vector<int> speculative_accept(const std::vector<int>& draft_tokens, const Eigen::MatrixXd& draft_probs,
                                           const Eigen::MatrixXd& target_probs, std::uint64_t seed) {
  const Eigen::Index k = static_cast<Eigen::Index>(draft_tokens.size());
  const Eigen::Index vocab = target_probs.cols();
  if (target_probs.rows() != k + 1)
    throw std::invalid_argument("speculative_accept: target_probs must have K + 1 rows");
  if (draft_probs.rows() != k || draft_probs.cols() != vocab)
    throw std::invalid_argument("speculative_accept: draft_probs must be K x V");
  for (int token : draft_tokens)
    if (token < 0 || token >= vocab) throw std::invalid_argument("speculative_accept: a draft token is outside [0, V)");

  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<int> out;
  for (Eigen::Index i = 0; i < k; ++i) {
    const int x = draft_tokens[static_cast<std::size_t>(i)];
    const double p = target_probs(i, x), q = draft_probs(i, x);
    // Accept with probability min(1, p / q); u < 1, so p >= q always accepts.
    if (uniform(rng) * q < p) {
      out.push_back(x);
      continue;
    }
    // Rejected: the correction comes from what the target wants more than
    // the draft offered, normalize(max(0, p_i - q_i)).
    Eigen::VectorXd residual(vocab);
    double sum = 0.0;
    for (Eigen::Index t = 0; t < vocab; ++t) sum += residual(t) = std::max(0.0, target_probs(i, t) - draft_probs(i, t));
    if (!(sum > 0)) throw std::invalid_argument("speculative_accept: the residual has no mass");
    while (sum != 1.0) {  // Bug: a loop that ends only if rounding allows it.
      for (Eigen::Index t = 0; t < vocab; ++t) residual(t) /= sum;
      sum = 0.0;
      for (Eigen::Index t = 0; t < vocab; ++t) sum += residual(t);
    }
    out.push_back(speculative_detail::draw(residual, rng));
    return out;
  }
  // Every draft accepted: one bonus token from the target's next distribution.
  out.push_back(speculative_detail::draw(target_probs.row(k).transpose(), rng));
  return out;
}
