// Known wrong (top_k): written the way Hugging Face's TopKLogitsWarper does
// it: find the k-th largest logit and drop only the logits below it. Every
// token tied with the k-th one survives, so a tie at the boundary keeps
// more than k tokens.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

inline std::vector<double> top_k_probs(const std::vector<double>& logits, int k) {
  if (logits.empty()) throw std::invalid_argument("logits is empty");
  if (k < 1) throw std::invalid_argument("k must be at least 1");
  const std::size_t n = logits.size();
  const std::size_t kept = std::min(static_cast<std::size_t>(k), n);
  // The k-th largest logit: the threshold.
  std::vector<double> sorted(logits);
  std::nth_element(sorted.begin(), sorted.begin() + (kept - 1), sorted.end(), std::greater<double>());
  const double kth = sorted[kept - 1];
  // Bug: "logit < kth is removed" keeps every token equal to the k-th.
  const double max_logit = *std::max_element(logits.begin(), logits.end());
  std::vector<double> probs(n, 0.0);
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    if (logits[i] < kth) continue;
    sum += probs[i] = std::exp(logits[i] - max_logit);
  }
  for (double& p : probs) p /= sum;
  return probs;
}

inline int top_k_sample(const std::vector<double>& logits, int k, std::uint64_t seed) {
  const std::vector<double> probs = top_k_probs(logits, k);
  std::mt19937_64 rng(seed);
  std::vector<int> ids;
  std::vector<double> weights;
  for (std::size_t i = 0; i < probs.size(); ++i) {
    if (probs[i] > 0.0) {
      ids.push_back(static_cast<int>(i));
      weights.push_back(probs[i]);
    }
  }
  std::discrete_distribution<int> pick(weights.begin(), weights.end());
  return ids[pick(rng)];
}
