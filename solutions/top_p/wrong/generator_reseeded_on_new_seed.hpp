// Wrong: keeps one static generator and seeds it again only when the seed
// differs from the last call's, to save the seeding. A run of distinct
// seeds draws correctly, but the same seed twice in a row continues the
// stream instead of starting it over: the second call's token is not the
// first one's, so a step cannot be replayed.
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
  if (logits.empty()) throw std::invalid_argument("top_p: logits is empty");
  if (!(p > 0.0 && p <= 1.0)) throw std::invalid_argument("top_p: p must be in (0, 1]");
  const double max_logit = *std::max_element(logits.begin(), logits.end());
  if (!std::isfinite(max_logit)) throw std::invalid_argument("top_p: no finite logit");
  const std::size_t n = logits.size();
  std::vector<double> probs(n);
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) sum += probs[i] = std::exp(logits[i] - max_logit);
  for (double& prob : probs) prob /= sum;
  if (p == 1.0) return probs;
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return probs[a] > probs[b] || (probs[a] == probs[b] && a < b); });
  std::size_t kept = 0;
  double kept_mass = 0.0;
  while (kept < n && kept_mass < p) kept_mass += probs[order[kept++]];
  std::vector<double> result(n, 0.0);
  for (std::size_t r = 0; r < kept; ++r) result[order[r]] = probs[order[r]] / kept_mass;
  return result;
}

inline int top_p_sample(const std::vector<double>& logits, double p, std::uint64_t seed) {
  static std::mt19937_64 rng;  // the bug: state shared by every call
  static bool seeded = false;
  static std::uint64_t last_seed = 0;
  if (!seeded || seed != last_seed) rng.seed(seed), seeded = true, last_seed = seed;
  const std::vector<double> probs = top_p_probs(logits, p);
  const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53;
  double cumulative = 0.0;
  int last = -1;
  for (std::size_t i = 0; i < probs.size(); ++i) {
    if (!(probs[i] > 0.0)) continue;
    cumulative += probs[i];
    last = static_cast<int>(i);
    if (u < cumulative) return last;
  }
  return last;
}
