// Wrong: the range check is `token > V` instead of `token >= V`, so a
// draft token equal to V passes the check and is then used as a column
// index one past the last column of the tables.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

inline std::vector<int> speculative_accept(const std::vector<int>& draft_tokens, const Eigen::MatrixXd& draft_probs,
                                           const Eigen::MatrixXd& target_probs, std::uint64_t seed) {
  const long K = static_cast<long>(draft_tokens.size());
  const long V = target_probs.cols();
  if (target_probs.rows() != K + 1) throw std::invalid_argument("target_probs must have K + 1 rows");
  if (draft_probs.rows() != K || draft_probs.cols() != V) throw std::invalid_argument("draft_probs must be K x V");
  for (int token : draft_tokens)
    if (token < 0 || token > V) throw std::invalid_argument("draft token outside the vocabulary");

  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto draw = [&](const Eigen::RowVectorXd& weights) {
    std::discrete_distribution<int> pick(weights.data(), weights.data() + weights.size());
    return pick(rng);
  };
  std::vector<int> out;
  for (long i = 0; i < K; ++i) {
    const int x = draft_tokens[i];
    if (unit(rng) * draft_probs(i, x) < target_probs(i, x)) {
      out.push_back(x);
      continue;
    }
    out.push_back(draw((target_probs.row(i) - draft_probs.row(i)).cwiseMax(0.0)));
    return out;
  }
  out.push_back(draw(target_probs.row(K)));
  return out;
}
