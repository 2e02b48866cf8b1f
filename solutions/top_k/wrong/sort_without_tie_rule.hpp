// Known wrong (top_k): sorts the token ids with std::sort by logit alone.
// std::sort is not stable, so equal logits come out in no particular order
// and a tie at the k-th place can keep a higher id instead of the lower one.
// (libstdc++ happens to insertion-sort up to 16 elements, which keeps the
// order there; larger tie groups get shuffled.)
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
  // Bug: no tie rule, and std::sort does not keep the id order of equals.
  std::sort(ids.begin(), ids.end(), [&](int a, int b) { return logits[a] > logits[b]; });
  const std::size_t kept = std::min(static_cast<std::size_t>(k), ids.size());
  const double max_logit = logits[ids[0]];
  std::vector<double> probs(logits.size(), 0.0);
  double sum = 0.0;
  for (std::size_t r = 0; r < kept; ++r) {
    sum += probs[ids[r]] = std::exp(logits[ids[r]] - max_logit);
  }
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
