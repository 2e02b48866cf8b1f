// Known wrong (top_k): selects the k best with std::nth_element comparing
// logits only. nth_element leaves equal elements in any order, so when
// several tokens tie for the k-th place the ones kept are not the lowest
// ids.
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
  // Bug: compares logits only; ties are not broken by the lower id.
  std::nth_element(ids.begin(), ids.begin() + (kept - 1), ids.end(),
                   [&](int a, int b) { return logits[a] > logits[b]; });
  ids.resize(kept);
  double max_logit = -std::numeric_limits<double>::infinity();
  for (int id : ids) max_logit = std::max(max_logit, logits[id]);
  std::vector<double> probs(n, 0.0);
  double sum = 0.0;
  for (int id : ids) sum += probs[id] = std::exp(logits[id] - max_logit);
  for (int id : ids) probs[id] /= sum;
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
