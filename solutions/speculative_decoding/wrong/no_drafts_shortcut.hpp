// Wrong: a shortcut for K = 0 (nothing to verify, only the bonus token)
// checks that draft_probs has no rows but not that it has the target's V
// columns. An empty draft_probs still has a shape, and 0 x 4 next to a
// 1 x 3 target_probs is as invalid as 1 x 4 next to 2 x 3.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

namespace shortcut_detail {
inline int draw(const Eigen::RowVectorXd& weights, std::mt19937_64& rng) {
  std::discrete_distribution<int> pick(weights.data(), weights.data() + weights.size());
  return pick(rng);
}
}  // namespace shortcut_detail

inline std::vector<int> speculative_accept(const std::vector<int>& draft_tokens, const Eigen::MatrixXd& draft_probs,
                                           const Eigen::MatrixXd& target_probs, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  if (draft_tokens.empty()) {
    // No drafts: the round is just the bonus token from p_0.
    if (target_probs.rows() != 1 || draft_probs.rows() != 0)
      throw std::invalid_argument("K = 0 needs one target row and no draft rows");
    return {shortcut_detail::draw(target_probs.row(0), rng)};
  }

  const Eigen::Index k = static_cast<Eigen::Index>(draft_tokens.size());
  const Eigen::Index vocab = target_probs.cols();
  if (target_probs.rows() != k + 1) throw std::invalid_argument("target_probs must have K + 1 rows");
  if (draft_probs.rows() != k || draft_probs.cols() != vocab) throw std::invalid_argument("draft_probs must be K x V");
  for (int token : draft_tokens)
    if (token < 0 || token >= vocab) throw std::invalid_argument("draft token outside [0, V)");

  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<int> out;
  for (Eigen::Index i = 0; i < k; ++i) {
    const int x = draft_tokens[static_cast<std::size_t>(i)];
    if (uniform(rng) * draft_probs(i, x) < target_probs(i, x)) {
      out.push_back(x);
      continue;
    }
    out.push_back(shortcut_detail::draw((target_probs.row(i) - draft_probs.row(i)).cwiseMax(0.0), rng));
    return out;
  }
  out.push_back(shortcut_detail::draw(target_probs.row(k), rng));
  return out;
}
