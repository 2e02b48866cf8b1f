// Hint test: correct probabilities, but the sampler returns the position of
// the drawn token in the best-first order (its rank) instead of its id. No
// known mistake is this one, so no hint may be given.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

inline std::vector<double> top_k_probs(const std::vector<double>& logits, int k) {
  if (logits.empty() || k < 1) throw std::invalid_argument("top_k: bad arguments");
  std::vector<int> order(logits.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return logits[a] > logits[b]; });
  order.resize(std::min<std::size_t>(static_cast<std::size_t>(k), logits.size()));
  double top = logits[order[0]];
  if (std::isinf(top) && top < 0) throw std::invalid_argument("top_k: no finite logit");
  std::vector<double> probs(logits.size(), 0.0);
  double sum = 0;
  for (int id : order) sum += probs[id] = std::exp(logits[id] - top);
  for (int id : order) probs[id] /= sum;
  return probs;
}

inline int top_k_sample(const std::vector<double>& logits, int k, std::uint64_t seed) {
  std::vector<double> probs = top_k_probs(logits, k);
  std::vector<int> order(logits.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return probs[a] > probs[b]; });
  std::mt19937_64 rng(seed);
  double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng), sum = 0;
  for (std::size_t rank = 0; rank < order.size(); ++rank) {
    sum += probs[order[rank]];
    if (u < sum) return static_cast<int>(rank);  // the rank, not order[rank]
  }
  return 0;
}
