// Hint test: two known mistakes at once. top_k_probs keeps k + 1 tokens;
// top_k_sample finds the right k tokens but picks one of them uniformly.
// Both mistakes must be named.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

inline std::vector<int> best_first(const std::vector<double>& logits) {
  std::vector<int> ids(logits.size());
  std::iota(ids.begin(), ids.end(), 0);
  std::stable_sort(ids.begin(), ids.end(), [&](int a, int b) { return logits[a] > logits[b]; });
  return ids;
}

inline std::vector<double> top_k_probs(const std::vector<double>& logits, int k) {
  if (logits.empty()) throw std::invalid_argument("logits is empty");
  if (k < 1) throw std::invalid_argument("k must be at least 1");
  std::vector<int> ids = best_first(logits);
  if (std::isinf(logits[ids[0]]) && logits[ids[0]] < 0) throw std::invalid_argument("no finite logit");
  const std::size_t kept = std::min(static_cast<std::size_t>(k) + 1, ids.size());  // one too many
  std::vector<double> probs(logits.size(), 0.0);
  double sum = 0.0;
  for (std::size_t r = 0; r < kept; ++r) sum += probs[ids[r]] = std::exp(logits[ids[r]] - logits[ids[0]]);
  for (std::size_t r = 0; r < kept; ++r) probs[ids[r]] /= sum;
  return probs;
}

inline int top_k_sample(const std::vector<double>& logits, int k, std::uint64_t seed) {
  if (logits.empty()) throw std::invalid_argument("logits is empty");
  if (k < 1) throw std::invalid_argument("k must be at least 1");
  std::vector<int> ids = best_first(logits);
  std::vector<int> kept;
  for (std::size_t r = 0; r < ids.size() && kept.size() < static_cast<std::size_t>(k); ++r)
    if (!(std::isinf(logits[ids[r]]) && logits[ids[r]] < 0)) kept.push_back(ids[r]);
  if (kept.empty()) throw std::invalid_argument("no finite logit");
  std::mt19937_64 rng(seed);
  return kept[std::uniform_int_distribution<std::size_t>(0, kept.size() - 1)(rng)];  // ignores the weights
}
