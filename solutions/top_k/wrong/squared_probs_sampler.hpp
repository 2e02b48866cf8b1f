// Known wrong (top_k): the sampler weights each kept token by its
// probability squared, which sharpens the distribution (like halving the
// temperature) instead of sampling from it.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

inline std::vector<double> top_k_probs(const std::vector<double>& logits, int k) {
  if (logits.empty()) throw std::invalid_argument("logits is empty");
  if (k < 1) throw std::invalid_argument("k must be at least 1");
  std::vector<int> ids(logits.size());
  std::iota(ids.begin(), ids.end(), 0);
  std::sort(ids.begin(), ids.end(),
            [&](int a, int b) { return logits[a] > logits[b] || (logits[a] == logits[b] && a < b); });
  const std::size_t kept = std::min(static_cast<std::size_t>(k), ids.size());
  std::vector<double> probs(logits.size(), 0.0);
  double sum = 0.0;
  for (std::size_t r = 0; r < kept; ++r) {
    sum += probs[ids[r]] = std::exp(logits[ids[r]] - logits[ids[0]]);
  }
  for (std::size_t r = 0; r < kept; ++r) probs[ids[r]] /= sum;
  return probs;
}

inline int top_k_sample(const std::vector<double>& logits, int k, std::uint64_t seed) {
  std::vector<double> weights = top_k_probs(logits, k);
  for (double& w : weights) w *= w;  // bug: p * p instead of p
  std::mt19937_64 rng(seed);
  std::discrete_distribution<int> pick(weights.begin(), weights.end());
  return pick(rng);
}
