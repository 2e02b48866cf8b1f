// Known wrong (top_k): normalizes the kept tokens in log space with
// lse = max + log(sum) and p = exp(z - lse). Near 1e16 a double's spacing is
// 2, so max + log(2) rounds back to max and two kept tokens of logit 1e16
// get exp(0) = 1 each instead of 0.5. Keep the two apart:
// exp((z - max) - log(sum)).
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
  double sum = 0.0;
  for (std::size_t r = 0; r < kept; ++r) sum += std::exp(logits[ids[r]] - max_logit);
  const double lse = max_logit + std::log(sum);  // Bug: log(sum) is lost beside a large max.
  std::vector<double> probs(n, 0.0);
  for (std::size_t r = 0; r < kept; ++r) probs[ids[r]] = std::exp(logits[ids[r]] - lse);
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
