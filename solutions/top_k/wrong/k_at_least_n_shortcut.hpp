// Known wrong (top_k): when k keeps every token it takes a shortcut and
// returns the plain softmax, but that path forgets to subtract the largest
// logit, so exp overflows (inf / inf = NaN) for logits above about 709 and
// underflows (0 / 0) when every logit is below about -745. The filtering
// path below is right.
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
  const std::size_t n = logits.size();
  std::vector<double> probs(n, 0.0);
  if (static_cast<std::size_t>(k) >= n) {
    // Nothing to filter: plain softmax. Bug: no max subtraction.
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) sum += probs[i] = std::exp(logits[i]);
    for (double& p : probs) p /= sum;
    return probs;
  }
  std::vector<int> ids(n);
  std::iota(ids.begin(), ids.end(), 0);
  std::partial_sort(ids.begin(), ids.begin() + k, ids.end(),
                    [&](int a, int b) { return logits[a] > logits[b] || (logits[a] == logits[b] && a < b); });
  const double max_logit = logits[ids[0]];
  double sum = 0.0;
  for (int r = 0; r < k; ++r) sum += probs[ids[r]] = std::exp(logits[ids[r]] - max_logit);
  for (int r = 0; r < k; ++r) probs[ids[r]] /= sum;
  return probs;
}

inline int top_k_sample(const std::vector<double>& logits, int k, std::uint64_t seed) {
  const std::vector<double> probs = top_k_probs(logits, k);
  std::mt19937_64 rng(seed);
  const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53;
  double cumulative = 0.0;
  int last_positive = 0;
  for (std::size_t i = 0; i < probs.size(); ++i) {
    if (!(probs[i] > 0.0)) continue;
    cumulative += probs[i];
    last_positive = static_cast<int>(i);
    if (u < cumulative) return last_positive;
  }
  return last_positive;
}
