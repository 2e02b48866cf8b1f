// Accepted top_k: one pass with a size-k heap, O(n log k), and a Gumbel-max
// sampler: argmax of log p + Gumbel noise over the kept tokens is a draw
// from p, with no cumulative sums at all.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <queue>
#include <random>
#include <stdexcept>
#include <vector>

namespace top_k_gumbel {

// The kept ids, in no particular order.
inline std::vector<int> kept_ids(const std::vector<double>& logits, int k) {
  if (logits.empty()) throw std::invalid_argument("logits is empty");
  if (k < 1) throw std::invalid_argument("k must be at least 1");
  // "a is better than b": higher logit, or equal logit and lower id.
  auto better = [&](int a, int b) { return logits[a] > logits[b] || (logits[a] == logits[b] && a < b); };
  // With `better` as the comparator the heap's top is the worst kept token.
  std::priority_queue<int, std::vector<int>, decltype(better)> heap(better);
  for (std::size_t i = 0; i < logits.size(); ++i) {
    const int id = static_cast<int>(i);
    if (heap.size() < static_cast<std::size_t>(k)) {
      heap.push(id);
    } else if (better(id, heap.top())) {
      heap.pop();
      heap.push(id);
    }
  }
  std::vector<int> ids;
  for (; !heap.empty(); heap.pop()) ids.push_back(heap.top());
  return ids;
}

}  // namespace top_k_gumbel

inline std::vector<double> top_k_probs(const std::vector<double>& logits, int k) {
  const std::vector<int> ids = top_k_gumbel::kept_ids(logits, k);
  double max_logit = logits[ids.front()];
  for (int id : ids) max_logit = std::fmax(max_logit, logits[id]);
  std::vector<double> probs(logits.size(), 0.0);
  double sum = 0.0;
  for (int id : ids) sum += probs[id] = std::exp(logits[id] - max_logit);
  for (int id : ids) probs[id] /= sum;
  return probs;
}

inline int top_k_sample(const std::vector<double>& logits, int k, std::uint64_t seed) {
  const std::vector<double> probs = top_k_probs(logits, k);
  std::mt19937_64 rng(seed);
  int best = -1;
  double best_score = 0.0;
  for (std::size_t i = 0; i < probs.size(); ++i) {
    if (probs[i] <= 0.0) continue;
    // u in (0, 1) strictly, so both logarithms are finite.
    const double u = (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53;
    const double score = std::log(probs[i]) - std::log(-std::log(u));
    if (best < 0 || score > best_score) {
      best = static_cast<int>(i);
      best_score = score;
    }
  }
  return best;
}
