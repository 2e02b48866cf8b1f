// Known wrong (temperature): "guards" against dividing by an almost-zero
// temperature by rejecting every T below machine epsilon (2.2e-16). Such a
// T is valid: T > 0 and finite is all the contract asks, and subtracting
// the largest logit first keeps the exponents <= 0 however small T is.
#pragma once

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

inline std::vector<double> softmax_with_temperature(const std::vector<double>& logits, double temperature) {
  // Bug: a valid tiny temperature is rejected.
  if (!(temperature >= std::numeric_limits<double>::epsilon()) || !std::isfinite(temperature)) {
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
