// Wrong: checks each draft token only when the walk reaches it. A round that
// ends at an early rejection never looks at the later tokens, so an
// out-of-range token after it is not rejected and the call returns.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

inline std::vector<int> speculative_accept(const std::vector<int>& draft_tokens, const Eigen::MatrixXd& draft_probs,
                                           const Eigen::MatrixXd& target_probs, std::uint64_t seed) {
  const int K = static_cast<int>(draft_tokens.size());
  const int V = static_cast<int>(target_probs.cols());
  if (target_probs.rows() != K + 1 || draft_probs.rows() != K || draft_probs.cols() != V)
    throw std::invalid_argument("bad shapes");

  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  auto sample = [&](const std::vector<double>& w) {
    double total = 0;
    for (double x : w) total += x;
    double r = U(gen) * total;
    int last = 0;
    for (int t = 0; t < V; ++t) {
      if (w[t] <= 0) continue;
      last = t;
      if (r < w[t]) return t;
      r -= w[t];
    }
    return last;
  };

  std::vector<int> result;
  for (int i = 0; i < K; ++i) {
    const int x = draft_tokens[i];
    if (x < 0 || x >= V) throw std::invalid_argument("draft token out of range");
    const double p = target_probs(i, x), q = draft_probs(i, x);
    if (U(gen) < p / q) {
      result.push_back(x);
      continue;
    }
    std::vector<double> residual(V);
    for (int t = 0; t < V; ++t) residual[t] = std::max(0.0, target_probs(i, t) - draft_probs(i, t));
    result.push_back(sample(residual));
    return result;
  }
  std::vector<double> bonus(V);
  for (int t = 0; t < V; ++t) bonus[t] = target_probs(K, t);
  result.push_back(sample(bonus));
  return result;
}
