// Known wrong (top_k): takes the softmax over every token and zeroes the
// dropped ones, but never renormalizes, so the kept probabilities sum to
// less than 1.
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
  const double max_logit = *std::max_element(logits.begin(), logits.end());
  std::vector<double> probs(logits.size());
  double sum = 0.0;
  for (std::size_t i = 0; i < logits.size(); ++i) {
    sum += probs[i] = std::exp(logits[i] - max_logit);
  }
  for (double& p : probs) p /= sum;
  std::vector<int> ids(logits.size());
  std::iota(ids.begin(), ids.end(), 0);
  std::sort(ids.begin(), ids.end(),
            [&](int a, int b) { return logits[a] > logits[b] || (logits[a] == logits[b] && a < b); });
  const std::size_t kept = std::min(static_cast<std::size_t>(k), ids.size());
  for (std::size_t r = kept; r < ids.size(); ++r) probs[ids[r]] = 0.0;
  return probs;  // bug: the kept mass is not divided back to 1
}

inline int top_k_sample(const std::vector<double>& logits, int k, std::uint64_t seed) {
  const std::vector<double> probs = top_k_probs(logits, k);
  std::mt19937_64 rng(seed);
  const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53;
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
