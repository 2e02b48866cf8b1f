// Accepted top_p: std::stable_sort by probability (a stable sort of ids
// 0..n-1 leaves equal probabilities in id order, so no tie-break is
// written); the sampler walks the kept tokens in that order instead of in
// id order.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

namespace top_p_by_rank {

struct Nucleus {
  std::vector<double> probs;  // softmax(logits), not yet filtered
  std::vector<int> kept;      // kept ids, most likely first
  double kept_mass = 0.0;     // sum of probs over kept
};

inline Nucleus nucleus(const std::vector<double>& logits, double p) {
  if (logits.empty()) throw std::invalid_argument("logits is empty");
  if (!std::isfinite(p) || p <= 0.0 || p > 1.0) {
    throw std::invalid_argument("p must be in (0, 1]");
  }
  Nucleus result;
  const double max_logit = *std::max_element(logits.begin(), logits.end());
  double sum = 0.0;
  for (double z : logits) {
    result.probs.push_back(std::exp(z - max_logit));
    sum += result.probs.back();
  }
  for (double& prob : result.probs) prob /= sum;

  std::vector<int> order(logits.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return result.probs[a] > result.probs[b]; });
  for (int id : order) {
    if (p < 1.0 && result.kept_mass >= p) break;
    result.kept.push_back(id);
    result.kept_mass += result.probs[id];
  }
  return result;
}

}  // namespace top_p_by_rank

inline std::vector<double> top_p_probs(const std::vector<double>& logits, double p) {
  const top_p_by_rank::Nucleus n = top_p_by_rank::nucleus(logits, p);
  std::vector<double> result(logits.size(), 0.0);
  for (int id : n.kept) result[id] = n.probs[id] / n.kept_mass;
  return result;
}

inline int top_p_sample(const std::vector<double>& logits, double p, std::uint64_t seed) {
  const top_p_by_rank::Nucleus n = top_p_by_rank::nucleus(logits, p);
  std::mt19937_64 rng(seed);
  // Inverse CDF over the kept tokens, most likely first: the walk usually
  // stops after a few tokens.
  const double target = std::uniform_real_distribution<double>(0.0, n.kept_mass)(rng);
  double cumulative = 0.0;
  int last_positive = n.kept.front();
  for (int id : n.kept) {
    if (n.probs[id] <= 0.0) break;  // ranked last: only zeros follow
    cumulative += n.probs[id];
    last_positive = id;
    if (target < cumulative) return id;
  }
  return last_positive;
}
