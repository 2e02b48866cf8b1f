// Accepted: std::mt19937 (32-bit) seeded with a seed_seq made from the two
// halves of the seed; the acceptance probability computed explicitly as
// min(1, p / q); the residual normalized first, then drawn with
// std::partial_sum and std::upper_bound over its cumulative sums.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

inline std::vector<int> speculative_accept(const std::vector<int>& draft_tokens, const Eigen::MatrixXd& draft_probs,
                                           const Eigen::MatrixXd& target_probs, std::uint64_t seed) {
  const int k = static_cast<int>(draft_tokens.size());
  if (target_probs.rows() != k + 1) throw std::invalid_argument("need K + 1 target rows");
  const int v = static_cast<int>(target_probs.cols());
  if (draft_probs.rows() != k) throw std::invalid_argument("need K draft rows");
  if (draft_probs.cols() != v) throw std::invalid_argument("draft and target vocabularies differ");
  for (int x : draft_tokens)
    if (x < 0 || x >= v) throw std::invalid_argument("draft token outside the vocabulary");

  std::seed_seq sequence{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)};
  std::mt19937 rng(sequence);
  auto uniform = [&] { return std::generate_canonical<double, 53>(rng); };
  auto sample = [&](std::vector<double> probs) {
    const double total = std::accumulate(probs.begin(), probs.end(), 0.0);
    for (double& p : probs) p /= total;
    std::vector<double> cumulative(probs.size());
    std::partial_sum(probs.begin(), probs.end(), cumulative.begin());
    int t = static_cast<int>(std::upper_bound(cumulative.begin(), cumulative.end(), uniform()) - cumulative.begin());
    t = std::min(t, v - 1);
    while (probs[t] == 0 && t > 0) --t;  // rounding past the end lands on the last token with mass
    return t;
  };

  std::vector<int> tokens;
  for (int i = 0; i < k; ++i) {
    const int x = draft_tokens[i];
    const double accept = std::min(1.0, target_probs(i, x) / draft_probs(i, x));
    if (uniform() < accept) {
      tokens.push_back(x);
      continue;
    }
    std::vector<double> residual(v);
    for (int t = 0; t < v; ++t) residual[t] = std::max(0.0, target_probs(i, t) - draft_probs(i, t));
    tokens.push_back(sample(residual));
    return tokens;
  }
  std::vector<double> last(v);
  for (int t = 0; t < v; ++t) last[t] = target_probs(k, t);
  tokens.push_back(sample(last));
  return tokens;
}
