// Known wrong (top_p): the probabilities are right, but the sampler picks
// one of the kept tokens uniformly, ignoring how likely each one is.
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
  const std::vector<double> probs = top_p_probs(logits, p);
  std::vector<int> kept;
  for (std::size_t i = 0; i < probs.size(); ++i) {
    if (probs[i] > 0.0) kept.push_back(static_cast<int>(i));
  }
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::size_t> pick(0, kept.size() - 1);
  return kept[pick(rng)];  // bug: every kept token equally likely
}
