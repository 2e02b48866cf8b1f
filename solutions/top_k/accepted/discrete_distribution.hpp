// Accepted top_k: sorts (logit, id) pairs in full, O(n log n), and samples
// with std::discrete_distribution over the tokens of positive probability.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

inline std::vector<double> top_k_probs(const std::vector<double>& logits, int k) {
  if (logits.empty()) throw std::invalid_argument("logits is empty");
  if (k < 1) throw std::invalid_argument("k must be at least 1");
  // Sorting (-logit, id) ascending ranks by logit descending, then id.
  std::vector<std::pair<double, int>> ranked;
  ranked.reserve(logits.size());
  for (std::size_t i = 0; i < logits.size(); ++i) {
    ranked.emplace_back(-logits[i], static_cast<int>(i));
  }
  std::sort(ranked.begin(), ranked.end());
  const std::size_t kept = std::min(static_cast<std::size_t>(k), ranked.size());

  std::vector<double> probs(logits.size(), 0.0);
  const double max_logit = -ranked[0].first;
  double sum = 0.0;
  for (std::size_t r = 0; r < kept; ++r) {
    const int id = ranked[r].second;
    probs[id] = std::exp(logits[id] - max_logit);
    sum += probs[id];
  }
  for (std::size_t r = 0; r < kept; ++r) probs[ranked[r].second] /= sum;
  return probs;
}

inline int top_k_sample(const std::vector<double>& logits, int k, std::uint64_t seed) {
  const std::vector<double> probs = top_k_probs(logits, k);
  // Only tokens with positive probability enter the distribution, so no
  // rounding inside the library can ever land on a zero-probability token.
  std::vector<int> ids;
  std::vector<double> weights;
  for (std::size_t i = 0; i < probs.size(); ++i) {
    if (probs[i] > 0.0) {
      ids.push_back(static_cast<int>(i));
      weights.push_back(probs[i]);
    }
  }
  std::mt19937_64 rng(seed);
  std::discrete_distribution<int> pick(weights.begin(), weights.end());
  return ids[pick(rng)];
}
