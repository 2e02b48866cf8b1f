// Known wrong (temperature): adds up the softmax's denominator in a float.
// Each addition rounds to float's 24 bits, an error of up to 3e-8 of the
// running sum; over a vocabulary of 262,144 tokens the errors add up to about
// 1e-4 of the sum, far past the tolerance of 1e-6. Accumulate in double.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

inline std::vector<double> softmax_with_temperature(const std::vector<double>& logits, double temperature) {
  if (!(temperature > 0.0) || !std::isfinite(temperature)) throw std::invalid_argument("bad temperature");
  if (logits.empty()) throw std::invalid_argument("empty logits");
  double max_logit = -std::numeric_limits<double>::infinity();
  for (double z : logits) max_logit = std::max(max_logit, z);
  if (std::isinf(max_logit)) throw std::invalid_argument("no finite logit");
  std::vector<double> probs(logits.size());
  float sum = 0.0f;  // Bug: a float accumulator.
  for (std::size_t i = 0; i < logits.size(); ++i) {
    probs[i] = std::exp((logits[i] - max_logit) / temperature);
    sum += static_cast<float>(probs[i]);
  }
  for (double& p : probs) p /= sum;
  return probs;
}
