// Accepted top_k: std::partial_sort puts the k best ids in rank order; the
// sampler walks the kept tokens best first instead of in id order.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

namespace top_k_partial_sort {

// The kept ids, best first (higher logit first, ties by lower id).
inline std::vector<int> ranked_kept_ids(const std::vector<double>& logits, int k) {
  if (logits.empty()) throw std::invalid_argument("logits is empty");
  if (k < 1) throw std::invalid_argument("k must be at least 1");
  const std::size_t kept = std::min(static_cast<std::size_t>(k), logits.size());
  std::vector<int> ids(logits.size());
  std::iota(ids.begin(), ids.end(), 0);
  std::partial_sort(ids.begin(), ids.begin() + kept, ids.end(),
                    [&](int a, int b) { return logits[a] > logits[b] || (logits[a] == logits[b] && a < b); });
  ids.resize(kept);
  return ids;
}

// Softmax over the ranked kept ids, 0 elsewhere.
inline std::vector<double> probs_of(const std::vector<double>& logits, const std::vector<int>& ranked) {
  const double max_logit = logits[ranked.front()];  // the best kept token
  std::vector<double> probs(logits.size(), 0.0);
  double sum = 0.0;
  for (int id : ranked) sum += probs[id] = std::exp(logits[id] - max_logit);
  for (int id : ranked) probs[id] /= sum;
  return probs;
}

}  // namespace top_k_partial_sort

inline std::vector<double> top_k_probs(const std::vector<double>& logits, int k) {
  return top_k_partial_sort::probs_of(logits, top_k_partial_sort::ranked_kept_ids(logits, k));
}

inline int top_k_sample(const std::vector<double>& logits, int k, std::uint64_t seed) {
  const std::vector<int> ranked = top_k_partial_sort::ranked_kept_ids(logits, k);
  const std::vector<double> probs = top_k_partial_sort::probs_of(logits, ranked);
  std::mt19937_64 rng(seed);
  const double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
  double total = 0.0;
  for (int id : ranked) total += probs[id];
  double cumulative = 0.0;
  int last_positive = ranked.front();
  for (int id : ranked) {
    if (probs[id] <= 0.0) continue;  // a -inf logit kept because k is large
    cumulative += probs[id];
    last_positive = id;
    if (u * total < cumulative) return id;
  }
  return last_positive;
}
