// Wrong: computes the stable softmax correctly but never rejects invalid
// arguments. It returns NaNs for a bad temperature or all -inf logits and
// an empty vector for empty logits instead of throwing.
#pragma once

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

inline std::vector<double> softmax_with_temperature(const std::vector<double>& logits, double temperature) {
  double m = -std::numeric_limits<double>::infinity();
  for (double z : logits) {
    if (std::isfinite(z) && z > m) m = z;
  }
  std::vector<double> out;
  double sum = 0.0;
  for (double z : logits) {
    out.push_back(std::exp((z - m) / temperature));
    sum += out.back();
  }
  for (double& p : out) p /= sum;
  return out;
}
