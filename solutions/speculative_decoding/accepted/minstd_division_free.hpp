// Accepted: a different generator (std::minstd_rand, seeded from both halves
// of the seed), the division-free acceptance test u * q < p, and the
// residual and bonus draws done by std::discrete_distribution, which
// normalizes the weights itself.
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

inline std::vector<int> speculative_accept(const std::vector<int>& draft_tokens, const Eigen::MatrixXd& draft_probs,
                                           const Eigen::MatrixXd& target_probs, std::uint64_t seed) {
  const long k = static_cast<long>(draft_tokens.size());
  const long v = target_probs.cols();
  if (target_probs.rows() != k + 1) throw std::invalid_argument("target_probs must be (K+1) x V");
  if (draft_probs.rows() != k || draft_probs.cols() != v) throw std::invalid_argument("draft_probs must be K x V");
  for (int x : draft_tokens)
    if (x < 0 || x >= v) throw std::invalid_argument("draft token out of range");

  // minstd_rand's state lives in [1, 2^31 - 2]: fold the 64-bit seed into it.
  const std::uint64_t folded = (seed ^ (seed >> 31) ^ (seed >> 62)) % 2147483646ull + 1;
  std::minstd_rand rng(static_cast<std::minstd_rand::result_type>(folded));
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto draw = [&](const Eigen::RowVectorXd& weights) {
    std::vector<double> w(weights.data(), weights.data() + weights.size());
    std::discrete_distribution<int> pick(w.begin(), w.end());
    return pick(rng);
  };

  std::vector<int> emitted;
  for (long i = 0; i < k; ++i) {
    const int x = draft_tokens[i];
    if (unit(rng) * draft_probs(i, x) < target_probs(i, x)) {  // u < p / q without dividing
      emitted.push_back(x);
      continue;
    }
    emitted.push_back(draw((target_probs.row(i) - draft_probs.row(i)).cwiseMax(0.0)));
    return emitted;
  }
  emitted.push_back(draw(target_probs.row(k)));
  return emitted;
}
