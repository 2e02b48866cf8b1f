// Known wrong (top_p): renormalizes the nucleus by dividing by its sum again
// and again until the sum is exactly 1.0. Rounding need not ever give
// exactly 1.0: for logits [0, -1, 0.5, -0.5] and p = 0.8 the kept
// probabilities come back, after a few divisions, to values they had before
// while their sum is still one unit in the last place away from 1, so the
// loop never ends. One division by the kept mass is enough.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

inline std::vector<double> top_p_probs(const std::vector<double>& logits, double p) {
  if (logits.empty()) throw std::invalid_argument("logits is empty");
  if (!(p > 0.0 && p <= 1.0)) throw std::invalid_argument("p must be in (0, 1]");
  const double max_logit = *std::max_element(logits.begin(), logits.end());
  if (std::isinf(max_logit)) throw std::invalid_argument("no finite logit");
  const std::size_t n = logits.size();
  std::vector<double> probs(n);
  double total = 0.0;
  for (std::size_t i = 0; i < n; ++i) total += probs[i] = std::exp(logits[i] - max_logit);
  for (double& prob : probs) prob /= total;
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return probs[a] > probs[b] || (probs[a] == probs[b] && a < b); });
  std::vector<double> result(n, 0.0);
  double cumulative = 0.0;
  for (int id : order) {
    result[id] = probs[id];
    cumulative += probs[id];
    if (cumulative >= p) break;
  }
  double sum = std::accumulate(result.begin(), result.end(), 0.0);
  while (sum != 1.0) {  // Bug: a loop that ends only if rounding allows it.
    for (double& value : result) value /= sum;
    sum = std::accumulate(result.begin(), result.end(), 0.0);
  }
  return result;
}

inline int top_p_sample(const std::vector<double>& logits, double p, std::uint64_t seed) {
  const std::vector<double> probs = top_p_probs(logits, p);
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
