// Known wrong (top_k): after keeping the k best tokens, divides by the sum
// again and again until the sum is exactly 1.0. Rounding need not ever give
// exactly 1.0: for kept logits [0, 0.5, -0.5] the probabilities come back,
// after a few divisions, to values they had before while their sum is still
// one unit in the last place away from 1, so the loop never ends. One
// division by the sum is enough.
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
  const std::size_t kept = std::min(static_cast<std::size_t>(k), n);
  std::vector<int> ids(n);
  std::iota(ids.begin(), ids.end(), 0);
  std::partial_sort(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(kept), ids.end(),
                    [&](int a, int b) { return logits[a] > logits[b] || (logits[a] == logits[b] && a < b); });
  const double max_logit = logits[ids[0]];
  if (std::isinf(max_logit)) throw std::invalid_argument("no finite logit");
  std::vector<double> probs(n, 0.0);
  for (std::size_t r = 0; r < kept; ++r) probs[ids[r]] = std::exp(logits[ids[r]] - max_logit);
  double sum = std::accumulate(probs.begin(), probs.end(), 0.0);
  while (sum != 1.0) {  // Bug: a loop that ends only if rounding allows it.
    for (double& p : probs) p /= sum;
    sum = std::accumulate(probs.begin(), probs.end(), 0.0);
  }
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
