// Accepted top_p: no sort. A binary min-heap keyed on (-probability, id)
// is built in O(n) and popped, best token first, only until the kept mass
// reaches p: O(n + m log n) for m kept tokens.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <queue>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

inline std::vector<double> top_p_probs(const std::vector<double>& logits, double p) {
  if (logits.empty()) throw std::invalid_argument("logits is empty");
  if (!(p > 0.0) || !(p <= 1.0)) {
    throw std::invalid_argument("p must be in (0, 1]");
  }
  double max_logit = logits[0];
  for (double z : logits) max_logit = std::fmax(max_logit, z);
  std::vector<double> probs(logits.size());
  double sum = 0.0;
  for (std::size_t i = 0; i < logits.size(); ++i) {
    sum += probs[i] = std::exp(logits[i] - max_logit);
  }

  // Smallest (-prob, id) on top: the most likely token, lower id on ties.
  using Entry = std::pair<double, int>;
  std::vector<Entry> entries;
  entries.reserve(logits.size());
  for (std::size_t i = 0; i < probs.size(); ++i) {
    probs[i] /= sum;
    entries.emplace_back(-probs[i], static_cast<int>(i));
  }
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap(std::greater<Entry>(), std::move(entries));

  std::vector<int> kept;
  double kept_mass = 0.0;
  while (!heap.empty() && (p == 1.0 || kept_mass < p)) {
    kept.push_back(heap.top().second);
    kept_mass += -heap.top().first;
    heap.pop();
  }
  std::vector<double> result(logits.size(), 0.0);
  for (int id : kept) result[id] = probs[id] / kept_mass;
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
