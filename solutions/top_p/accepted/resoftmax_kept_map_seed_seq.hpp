// Accepted top_p, slower per call for honest reasons. The nucleus is found
// with std::stable_sort of (probability, id) pairs (stable, so ties stay in
// id order), and it is renormalized the other way the statement allows:
// the kept logits go into a std::map from id to logit and the softmax is
// taken again over that map. The sampler seeds a std::mt19937_64 through
// std::seed_seq and builds a std::discrete_distribution over the whole
// vocabulary on every call. There is no shortcut for p = 1: everything is
// sorted, and all the logits go through the map.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

namespace top_p_resoftmax {

// Stable softmax over the values of a map, in place.
inline void softmax_in_place(std::map<int, double>& logits) {
  double max_logit = logits.begin()->second;
  for (const auto& entry : logits) max_logit = std::max(max_logit, entry.second);
  double sum = 0.0;
  for (auto& entry : logits) sum += entry.second = std::exp(entry.second - max_logit);
  for (auto& entry : logits) entry.second /= sum;
}

}  // namespace top_p_resoftmax

inline std::vector<double> top_p_probs(const std::vector<double>& logits, double p) {
  if (logits.empty()) throw std::invalid_argument("logits is empty");
  if (!(p > 0.0 && p <= 1.0)) throw std::invalid_argument("p must be in (0, 1]");
  const double max_logit = *std::max_element(logits.begin(), logits.end());
  std::vector<std::pair<double, int>> ranking;
  ranking.reserve(logits.size());
  double sum = 0.0;
  for (std::size_t i = 0; i < logits.size(); ++i) {
    ranking.emplace_back(std::exp(logits[i] - max_logit), static_cast<int>(i));
    sum += ranking.back().first;
  }
  for (auto& entry : ranking) entry.first /= sum;
  std::stable_sort(ranking.begin(), ranking.end(),
                   [](const std::pair<double, int>& a, const std::pair<double, int>& b) { return a.first > b.first; });

  // Mark the nucleus; tokens of probability 0 (-inf logits) never join it.
  std::vector<bool> in_nucleus(logits.size(), false);
  double kept_mass = 0.0;
  for (const auto& [prob, id] : ranking) {
    if (p < 1.0 && kept_mass >= p) break;
    in_nucleus[id] = prob > 0.0;
    kept_mass += prob;
  }
  // Renormalize: the softmax again, over the kept logits only.
  std::map<int, double> kept;
  for (std::size_t i = 0; i < logits.size(); ++i)
    if (in_nucleus[i]) kept[static_cast<int>(i)] = logits[i];
  top_p_resoftmax::softmax_in_place(kept);
  std::vector<double> result(logits.size(), 0.0);
  for (const auto& [id, prob] : kept) result[id] = prob;
  return result;
}

inline int top_p_sample(const std::vector<double>& logits, double p, std::uint64_t seed) {
  const std::vector<double> probs = top_p_probs(logits, p);
  std::seed_seq seeds{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)};
  std::mt19937_64 rng(seeds);
  std::discrete_distribution<int> pick(probs.begin(), probs.end());
  return pick(rng);
}
