// Naive baseline for the benchmark: top-k by sorting the whole vocabulary.
#pragma once

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

inline std::vector<double> top_k_probs(const std::vector<double>& logits, int k) {
  std::vector<int> order(logits.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return logits[a] > logits[b]; });
  order.resize(std::min<std::size_t>(k, order.size()));
  std::vector<double> probs(logits.size(), 0.0);
  double top = logits[order[0]], total = 0;
  for (int id : order) total += probs[id] = std::exp(logits[id] - top);
  for (int id : order) probs[id] /= total;
  return probs;
}
