// Naive baseline for the benchmark: top-p by taking the most likely
// remaining token again and again until the mass reaches p (O(V * kept)).
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

inline std::vector<double> top_p_probs(const std::vector<double>& logits, double p) {
  double top = *std::max_element(logits.begin(), logits.end()), total = 0;
  std::vector<double> probs(logits.size());
  for (std::size_t i = 0; i < logits.size(); ++i) total += probs[i] = std::exp(logits[i] - top);
  for (double& x : probs) x /= total;
  std::vector<bool> taken(logits.size(), false);
  std::vector<double> out(logits.size(), 0.0);
  double mass = 0;
  while (mass < p) {
    std::size_t best = logits.size();
    for (std::size_t i = 0; i < logits.size(); ++i)
      if (!taken[i] && (best == logits.size() || probs[i] > probs[best])) best = i;
    if (best == logits.size()) break;
    taken[best] = true;
    mass += out[best] = probs[best];
  }
  for (double& x : out) x /= mass;
  return out;
}
