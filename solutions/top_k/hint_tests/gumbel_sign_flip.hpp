// Hint test: correct probabilities; the sampler uses the Gumbel-max trick
// but subtracts the noise (argmax of log p - g instead of log p + g), which
// draws from a different distribution. No known mistake is this one, so no
// hint may be given.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

inline std::vector<double> top_k_probs(const std::vector<double>& logits, int k) {
  if (logits.empty() || k < 1) throw std::invalid_argument("top_k: bad arguments");
  std::vector<int> order(logits.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return logits[a] > logits[b]; });
  order.resize(std::min<std::size_t>(static_cast<std::size_t>(k), logits.size()));
  double top = logits[order[0]];
  if (std::isinf(top) && top < 0) throw std::invalid_argument("top_k: no finite logit");
  std::vector<double> probs(logits.size(), 0.0);
  double sum = 0;
  for (int id : order) sum += probs[id] = std::exp(logits[id] - top);
  for (int id : order) probs[id] /= sum;
  return probs;
}

inline int top_k_sample(const std::vector<double>& logits, int k, std::uint64_t seed) {
  std::vector<double> probs = top_k_probs(logits, k);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(std::numeric_limits<double>::min(), 1.0);
  int best = -1;
  double best_key = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < probs.size(); ++i) {
    double gumbel = -std::log(-std::log(uniform(rng)));
    if (probs[i] <= 0) continue;
    double key = std::log(probs[i]) - gumbel;  // the sign: should be + gumbel
    if (best < 0 || key > best_key) best = static_cast<int>(i), best_key = key;
  }
  return best;
}
