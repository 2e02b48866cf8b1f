// Known wrong (top_k): std::partial_sort by logit alone. partial_sort is a
// heap underneath and is not stable: when a better token pushes out one of
// several tokens tied for the last place, which one leaves depends on the
// heap, not on the id.
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
  const std::size_t kept = std::min(static_cast<std::size_t>(k), logits.size());
  std::vector<int> ids(logits.size());
  std::iota(ids.begin(), ids.end(), 0);
  // Bug: no tie rule in the comparator.
  std::partial_sort(ids.begin(), ids.begin() + kept, ids.end(),
                    [&](int a, int b) { return logits[a] > logits[b]; });
  const double max_logit = logits[ids[0]];
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
