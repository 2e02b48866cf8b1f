// Wrong: checks `temperature <= 0 || isinf(temperature)`, which is false for
// NaN (every comparison with NaN is false), so a NaN temperature slips
// through and produces NaN probabilities instead of an exception.
#pragma once

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

inline std::vector<double> softmax_with_temperature(const std::vector<double>& logits, double temperature) {
  if (temperature <= 0.0 || std::isinf(temperature)) {
    throw std::invalid_argument("temperature must be positive and finite");
  }
  if (logits.empty()) throw std::invalid_argument("empty logits");
  double m = -std::numeric_limits<double>::infinity();
  for (double z : logits) {
    if (std::isfinite(z) && z > m) m = z;
  }
  if (!std::isfinite(m)) throw std::invalid_argument("no finite logit");

  std::vector<double> out;
  double sum = 0.0;
  for (double z : logits) {
    out.push_back(std::exp((z - m) / temperature));
    sum += out.back();
  }
  for (double& p : out) p /= sum;
  return out;
}
