// Wrong: keeps one static generator and seeds it again only when the seed
// differs from the last call's, to save the seeding. Calls with distinct
// seeds are right, and so is a seed asked again after others; but the same
// seed twice in a row continues the stream instead of starting it over, so
// replaying a round (a retry, a second verifier) gives other tokens.
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

  static std::mt19937_64 rng;  // the bug: state shared by every call
  static bool seeded = false;
  static std::uint64_t last_seed = 0;
  if (!seeded || seed != last_seed) rng.seed(seed), seeded = true, last_seed = seed;
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
    Eigen::VectorXd residual = (target_probs.row(i) - draft_probs.row(i)).cwiseMax(0.0).transpose();
    if (!(residual.sum() > 0)) residual = target_probs.row(i).transpose();  // only for tables that do not sum to 1
    out.push_back(speculative_detail::draw(residual, rng));
    return out;
  }
  // Every draft accepted: one bonus token from the target's next distribution.
  out.push_back(speculative_detail::draw(target_probs.row(k).transpose(), rng));
  return out;
}
