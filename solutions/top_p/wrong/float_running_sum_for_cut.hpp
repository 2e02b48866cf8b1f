// Known wrong (top_p): the running sum that is compared with p is a
// float; the kept mass used to renormalize is then added up again in
// double. Each float addition rounds to 24 bits, and over tens of
// thousands of tokens the error grows to many tokens' worth: the cut lands
// on the wrong token, although the renormalization itself is exact.
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
  const std::size_t n = logits.size();
  std::vector<double> probs(n);
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) sum += probs[i] = std::exp(logits[i] - max_logit);
  for (double& prob : probs) prob /= sum;
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return probs[a] > probs[b] || (probs[a] == probs[b] && a < b); });
  std::size_t kept = 0;
  float running = 0.0f;  // bug: float precision for a sum of many terms
  while (kept < n && running < p) running += static_cast<float>(probs[order[kept++]]);
  double kept_mass = 0.0;
  for (std::size_t r = 0; r < kept; ++r) kept_mass += probs[order[r]];
  std::vector<double> result(n, 0.0);
  for (std::size_t r = 0; r < kept; ++r) result[order[r]] = probs[order[r]] / kept_mass;
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
