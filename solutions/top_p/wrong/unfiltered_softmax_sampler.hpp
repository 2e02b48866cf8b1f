// Known wrong (top_p): top_p_probs is right, but the sampler draws from the
// softmax over every token, so it returns tokens outside the nucleus.
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
  if (!(p > 0.0 && p <= 1.0)) throw std::invalid_argument("bad p");
  const double max_logit = *std::max_element(logits.begin(), logits.end());
  std::vector<double> probs(logits.size());
  double sum = 0.0;
  for (std::size_t i = 0; i < logits.size(); ++i) {
    sum += probs[i] = std::exp(logits[i] - max_logit);
  }
  for (double& prob : probs) prob /= sum;
  std::vector<int> order(logits.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return probs[a] > probs[b] || (probs[a] == probs[b] && a < b); });
  std::size_t kept = 0;
  double kept_mass = 0.0;
  while (kept < order.size() && kept_mass < p) {
    kept_mass += probs[order[kept++]];
  }
  std::vector<double> result(logits.size(), 0.0);
  for (std::size_t r = 0; r < kept; ++r) {
    result[order[r]] = probs[order[r]] / kept_mass;
  }
  return result;
}

inline int top_p_sample(const std::vector<double>& logits, double p, std::uint64_t seed) {
  if (logits.empty()) throw std::invalid_argument("logits is empty");
  if (!(p > 0.0 && p <= 1.0)) throw std::invalid_argument("bad p");
  const double max_logit = *std::max_element(logits.begin(), logits.end());
  std::vector<double> weights(logits.size());
  for (std::size_t i = 0; i < logits.size(); ++i) {
    weights[i] = std::exp(logits[i] - max_logit);  // bug: p is never applied
  }
  std::mt19937_64 rng(seed);
  std::discrete_distribution<int> pick(weights.begin(), weights.end());
  return pick(rng);
}
