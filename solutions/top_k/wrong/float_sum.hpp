// Known wrong (top_k): adds up the kept tokens' softmax denominator in a
// float. Each addition rounds to float's 24 bits, an error of up to 3e-8 of
// the running sum; over 131,072 kept tokens the errors add up to about 1e-4
// of the sum, far past the tolerance of 1e-6. Accumulate in double.
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
  const std::size_t n = logits.size();
  const std::size_t kept = std::min(static_cast<std::size_t>(k), n);
  std::vector<int> ids(n);
  std::iota(ids.begin(), ids.end(), 0);
  std::partial_sort(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(kept), ids.end(),
                    [&](int a, int b) { return logits[a] > logits[b] || (logits[a] == logits[b] && a < b); });
  const double max_logit = logits[ids[0]];
  if (max_logit == -std::numeric_limits<double>::infinity()) throw std::invalid_argument("no finite logit");
  float sum = 0.0f;  // Bug: a float accumulator.
  std::vector<double> probs(n, 0.0);
  for (std::size_t r = 0; r < kept; ++r) {
    probs[ids[r]] = std::exp(logits[ids[r]] - max_logit);
    sum += static_cast<float>(probs[ids[r]]);
  }
  for (std::size_t r = 0; r < kept; ++r) probs[ids[r]] /= sum;
  return probs;
}

inline int top_k_sample(const std::vector<double>& logits, int k, std::uint64_t seed) {
  const std::vector<double> probs = top_k_probs(logits, k);
  std::mt19937_64 rng(seed);
  const double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
  const double total = std::accumulate(probs.begin(), probs.end(), 0.0);
  double cumulative = 0.0;
  int last_positive = 0;
  for (std::size_t i = 0; i < probs.size(); ++i) {
    if (probs[i] <= 0.0) continue;
    cumulative += probs[i];
    last_positive = static_cast<int>(i);
    if (u * total < cumulative) return last_positive;
  }
  return last_positive;
}
