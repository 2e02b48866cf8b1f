// Accepted top_k, correct but slow (listed with slowdown: 10).
// top_k_probs ranks the whole vocabulary with std::stable_sort by logit
// alone, through a comparator held in a std::function (an indirect call per
// comparison): a stable sort keeps equal logits in id order, so ties go to
// the lower id without a tie rule. The sampler is a generic "sample from a
// probability vector" helper, written the way top-p needs it: it sorts
// every token of the vocabulary by probability, high first, and walks the
// cumulative sum from the top. Two full sorts per draw: 10x the reference
// and more on large vocabularies.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

inline std::vector<double> top_k_probs(const std::vector<double>& logits, int k) {
  if (logits.empty()) throw std::invalid_argument("logits is empty");
  if (k < 1) throw std::invalid_argument("k must be at least 1");
  const std::size_t n = logits.size();
  std::vector<int> ids(n);
  std::iota(ids.begin(), ids.end(), 0);
  const std::function<bool(int, int)> higher_logit = [&](int a, int b) { return logits[a] > logits[b]; };
  std::stable_sort(ids.begin(), ids.end(), higher_logit);
  ids.resize(std::min(static_cast<std::size_t>(k), n));

  const double max_logit = logits[ids.front()];
  std::vector<double> probs(n, 0.0);
  double sum = 0.0;
  for (int id : ids) sum += probs[id] = std::exp(logits[id] - max_logit);  // -inf gives 0
  for (int id : ids) probs[id] /= sum;
  return probs;
}

// Draws one token from `probs` (which sums to 1, up to rounding): tokens in
// order of probability, high first, and the first whose cumulative sum
// passes u * total. A token of probability 0 is never returned.
inline int sample_from_probs(const std::vector<double>& probs, std::uint64_t seed) {
  std::vector<int> order(probs.size());
  std::iota(order.begin(), order.end(), 0);
  const auto more_likely = [&](int a, int b) {
    return probs[a] > probs[b] || (probs[a] == probs[b] && a < b);
  };
  std::sort(order.begin(), order.end(), more_likely);

  std::mt19937_64 rng(seed);
  const double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
  double total = 0.0;
  for (int id : order) total += probs[id];
  const double target = u * total;
  double cumulative = 0.0;
  int last_positive = order.front();  // the most likely token
  for (int id : order) {
    if (!(probs[id] > 0.0)) break;  // the rest are 0 too
    cumulative += probs[id];
    last_positive = id;
    if (target < cumulative) return id;
  }
  return last_positive;
}

inline int top_k_sample(const std::vector<double>& logits, int k, std::uint64_t seed) {
  return sample_from_probs(top_k_probs(logits, k), seed);
}
