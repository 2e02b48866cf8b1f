// Known wrong (top_p): sorts (id, probability) pairs with std::sort
// comparing the probability only. std::sort is not stable, so tokens of
// equal probability come out in no particular order and, when the cut
// falls inside a group of ties, the wrong ones are kept. (libstdc++ sorts
// 16 elements or fewer by insertion, which happens to be stable, so small
// inputs do not show it.)
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

inline std::vector<double> top_p_probs(const std::vector<double>& logits, double p) {
  if (logits.empty()) throw std::invalid_argument("logits is empty");
  if (!(p > 0.0 && p <= 1.0)) throw std::invalid_argument("p must be in (0, 1]");
  const double max_logit = *std::max_element(logits.begin(), logits.end());
  std::vector<std::pair<int, double>> tokens;
  double sum = 0.0;
  for (std::size_t i = 0; i < logits.size(); ++i) {
    const double weight = std::exp(logits[i] - max_logit);
    tokens.emplace_back(static_cast<int>(i), weight);
    sum += weight;
  }
  for (auto& token : tokens) token.second /= sum;
  // Bug: no tie rule, and std::sort does not keep equal elements in order.
  std::sort(tokens.begin(), tokens.end(),
            [](const std::pair<int, double>& a, const std::pair<int, double>& b) { return a.second > b.second; });
  std::size_t kept = 0;
  double kept_mass = 0.0;
  while (kept < tokens.size() && kept_mass < p) kept_mass += tokens[kept++].second;
  std::vector<double> result(logits.size(), 0.0);
  for (std::size_t r = 0; r < kept; ++r) result[tokens[r].first] = tokens[r].second / kept_mass;
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
