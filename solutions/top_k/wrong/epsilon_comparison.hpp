// Known wrong (top_k): compares logits with a tolerance, treating two logits
// within 1e-9 of each other (relative to their size, for large ones) as
// equal and ranking them by id. Distinct logits closer than that are a real
// order, not a tie: 1e10 and the next double above it, or 0 and 1e-14.
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
  // Bug: "a > b" means more than an epsilon above, so near-equal logits tie
  // and the stable sort leaves them in id order.
  std::stable_sort(ids.begin(), ids.end(), [&](int a, int b) {
    const double size = std::isfinite(logits[b]) ? std::fabs(logits[b]) : 0.0;
    const double epsilon = 1e-9 * std::max(1.0, size);
    return logits[a] > logits[b] + epsilon;
  });
  const std::size_t kept = std::min(static_cast<std::size_t>(k), ids.size());
  double max_logit = logits[ids[0]];
  for (std::size_t r = 0; r < kept; ++r) max_logit = std::max(max_logit, logits[ids[r]]);
  std::vector<double> probs(logits.size(), 0.0);
  double sum = 0.0;
  for (std::size_t r = 0; r < kept; ++r) sum += probs[ids[r]] = std::exp(logits[ids[r]] - max_logit);
  for (std::size_t r = 0; r < kept; ++r) probs[ids[r]] /= sum;
  return probs;
}

inline int top_k_sample(const std::vector<double>& logits, int k, std::uint64_t seed) {
  const std::vector<double> probs = top_k_probs(logits, k);
  std::mt19937_64 rng(seed);
  const double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
  double cumulative = 0.0;
  int last_positive = 0;
  for (std::size_t i = 0; i < probs.size(); ++i) {
    if (probs[i] <= 0.0) continue;
    cumulative += probs[i];
    last_positive = static_cast<int>(i);
    if (u < cumulative) return last_positive;
  }
  return last_positive;
}
