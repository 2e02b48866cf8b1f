// Known wrong (temperature): correct results, too slow. The largest finite
// logit is recomputed inside the loop, once per token, so the softmax costs
// O(n^2): about 7e10 steps for a 262144-token vocabulary. Compute the
// maximum once, before the loop: two or three linear passes in all.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <vector>

namespace temperature_max_inside_loop {
inline double largest_finite(const std::vector<double>& logits) {
  double m = -std::numeric_limits<double>::infinity();
  for (double z : logits) {
    if (std::isfinite(z) && z > m) m = z;
  }
  return m;
}
}  // namespace temperature_max_inside_loop

inline std::vector<double> softmax_with_temperature(const std::vector<double>& logits, double temperature) {
  if (!(temperature > 0.0) || !std::isfinite(temperature)) {
    throw std::invalid_argument("temperature must be positive and finite");
  }
  if (logits.empty()) throw std::invalid_argument("logits is empty");
  if (!std::isfinite(temperature_max_inside_loop::largest_finite(logits))) {
    throw std::invalid_argument("no finite logit");
  }
  std::vector<double> probs(logits.size());
  double sum = 0.0;
  for (std::size_t i = 0; i < logits.size(); ++i) {
    // The shift is the same for every token, yet it is searched for again.
    const double m = temperature_max_inside_loop::largest_finite(logits);
    probs[i] = std::isinf(logits[i]) ? 0.0 : std::exp((logits[i] - m) / temperature);
    sum += probs[i];
  }
  for (double& p : probs) p /= sum;
  return probs;
}
