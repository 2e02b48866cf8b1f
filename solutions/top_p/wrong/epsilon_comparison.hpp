// Known wrong (top_p): orders the tokens comparing logits with a tolerance,
// treating two logits within 1e-9 of each other (relative to their size,
// for large ones) as equal and ranking them by id. Distinct logits closer
// than that are a real order, not a tie: 1e10 and the next double above it,
// or 0 and 1e-14.
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
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) sum += probs[i] = std::exp(logits[i] - max_logit);
  for (double& prob : probs) prob /= sum;

  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  // Bug: "a > b" means more than an epsilon above, so near-equal logits tie
  // and the stable sort leaves them in id order.
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const double size = std::isfinite(logits[b]) ? std::fabs(logits[b]) : 0.0;
    const double epsilon = 1e-9 * std::max(1.0, size);
    return logits[a] > logits[b] + epsilon;
  });
  std::vector<double> result(n, 0.0);
  double cumulative = 0.0;
  std::size_t kept = 0;
  while (kept < n) {
    cumulative += probs[order[kept]];
    ++kept;
    if (cumulative >= p) break;
  }
  for (std::size_t r = 0; r < kept; ++r) result[order[r]] = probs[order[r]] / cumulative;
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
