// Known wrong (top_p): returns [1] for a single finite logit before looking
// at p, so p = 0, NaN or p > 1 with one logit is accepted. One token is
// always kept, but the contract still rejects an invalid p: validate every
// argument first, then take shortcuts.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

namespace top_p_detail {

// softmax(logits) with the largest logit subtracted first, so exp never
// overflows; -inf logits get probability 0.
inline std::vector<double> softmax(const std::vector<double>& logits) {
  const double max_logit = *std::max_element(logits.begin(), logits.end());
  if (max_logit == -std::numeric_limits<double>::infinity()) {
    throw std::invalid_argument("top_p: no finite logit");
  }
  std::vector<double> probs(logits.size());
  double sum = 0.0;
  for (std::size_t i = 0; i < logits.size(); ++i) {
    probs[i] = std::exp(logits[i] - max_logit);
    sum += probs[i];
  }
  for (double& prob : probs) prob /= sum;
  return probs;
}

// Returns the token where the cumulative distribution first exceeds
// u * (sum of probs), for u in [0, 1). Tokens of probability 0 are never
// returned; if rounding leaves the target above every partial sum, the last
// token with positive probability is returned.
inline int inverse_cdf(const std::vector<double>& probs, double u) {
  const double target = u * std::accumulate(probs.begin(), probs.end(), 0.0);
  double cumulative = 0.0;
  int last_positive = -1;
  for (std::size_t i = 0; i < probs.size(); ++i) {
    if (!(probs[i] > 0.0)) continue;
    cumulative += probs[i];
    last_positive = static_cast<int>(i);
    if (target < cumulative) return last_positive;
  }
  return last_positive;
}

// 53 random bits from the generator as a double uniform in [0, 1).
inline double uniform01(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

}  // namespace top_p_detail

inline std::vector<double> top_p_probs(const std::vector<double>& logits, double p) {
  if (logits.size() == 1 && std::isfinite(logits[0])) return {1.0};  // Bug: before the checks.
  if (logits.empty()) throw std::invalid_argument("top_p: logits is empty");
  // Written so that NaN fails too; +inf fails as > 1.
  if (!(p > 0.0 && p <= 1.0)) {
    throw std::invalid_argument("top_p: p must be in (0, 1]");
  }
  const std::vector<double> probs = top_p_detail::softmax(logits);
  // p = 1 keeps everything, even when rounding makes the running sum reach
  // 1.0 before the last tiny probabilities are added.
  if (p == 1.0) return probs;

  // Rank by probability, high first; equal probabilities by lower id.
  const std::size_t n = logits.size();
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return probs[a] > probs[b] || (probs[a] == probs[b] && a < b); });

  // Keep tokens until the kept mass reaches p: the token that crosses p is
  // kept, and since p > 0 at least one token always is.
  std::size_t kept = 0;
  double kept_mass = 0.0;
  while (kept < n && kept_mass < p) kept_mass += probs[order[kept++]];

  std::vector<double> result(n, 0.0);
  for (std::size_t r = 0; r < kept; ++r) {
    result[order[r]] = probs[order[r]] / kept_mass;
  }
  return result;
}

inline int top_p_sample(const std::vector<double>& logits, double p, std::uint64_t seed) {
  const std::vector<double> probs = top_p_probs(logits, p);
  std::mt19937_64 rng(seed);
  return top_p_detail::inverse_cdf(probs, top_p_detail::uniform01(rng));
}
