// Known wrong (top_p): correct results, too slow. The nucleus is built by
// repeatedly scanning the whole vocabulary for the most likely token not
// taken yet: O(n * m) for m kept tokens, about 2e8 steps for n = 65536
// and a nucleus of 3000. Sort once (O(n log n)), or use a heap or
// nth_element on a candidate prefix.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

inline std::vector<double> top_p_probs(const std::vector<double>& logits, double p) {
  if (logits.empty()) throw std::invalid_argument("logits is empty");
  if (!(p > 0.0 && p <= 1.0)) throw std::invalid_argument("p must be in (0, 1]");
  const double max_logit = *std::max_element(logits.begin(), logits.end());
  if (!std::isfinite(max_logit)) throw std::invalid_argument("no finite logit");
  const std::size_t n = logits.size();
  std::vector<double> probs(n);
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    sum += probs[i] = std::exp(logits[i] - max_logit);
  }
  for (double& prob : probs) prob /= sum;
  if (p == 1.0) return probs;

  std::vector<bool> taken(n, false);
  std::vector<int> kept;
  double kept_mass = 0.0;
  while (kept_mass < p && kept.size() < n) {
    // One full scan per kept token (strict >: ties go to the lower id).
    int best = -1;
    for (std::size_t i = 0; i < n; ++i) {
      if (taken[i]) continue;
      if (best < 0 || probs[i] > probs[best]) best = static_cast<int>(i);
    }
    taken[best] = true;
    kept.push_back(best);
    kept_mass += probs[best];
  }
  std::vector<double> result(n, 0.0);
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
    if (!(probs[i] > 0.0)) continue;
    cumulative += probs[i];
    last_positive = static_cast<int>(i);
    if (u < cumulative) return last_positive;
  }
  return last_positive;
}
