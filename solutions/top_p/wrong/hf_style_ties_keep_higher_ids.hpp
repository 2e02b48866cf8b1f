// Known wrong (top_p): written the way Hugging Face's TopPLogitsWarper
// does it. Sort ascending (stably), add up the probabilities from the
// least likely token, and remove every token whose ascending cumulative
// mass is <= 1 - p. The same nucleus, except for ties at the cutoff: the
// lower ids come first in the ascending order and are removed first, so
// the higher ids are kept. This contract keeps the lower ids.
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

  // Ascending, stable: among equal probabilities the lower id comes first.
  std::vector<int> ascending(n);
  std::iota(ascending.begin(), ascending.end(), 0);
  std::stable_sort(ascending.begin(), ascending.end(), [&](int a, int b) { return probs[a] < probs[b]; });
  std::vector<bool> removed(n, false);
  double tail_mass = 0.0;
  for (std::size_t r = 0; r + 1 < n; ++r) {  // the most likely token is always kept
    tail_mass += probs[ascending[r]];
    if (tail_mass <= 1.0 - p) removed[ascending[r]] = true;
  }
  double kept_mass = 0.0;
  for (std::size_t i = 0; i < n; ++i)
    if (!removed[i]) kept_mass += probs[i];
  std::vector<double> result(n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    if (!removed[i]) result[i] = probs[i] / kept_mass;
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
