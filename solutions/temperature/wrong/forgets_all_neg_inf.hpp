// Wrong: rejects bad temperatures and empty logits but not the case where
// every logit is -inf. The maximum is then -inf, (-inf) - (-inf) is NaN,
// and it returns NaNs instead of throwing.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

inline std::vector<double> softmax_with_temperature(const std::vector<double>& logits, double temperature) {
  if (!(temperature > 0.0) || !std::isfinite(temperature)) {
    throw std::invalid_argument("temperature must be positive and finite");
  }
  if (logits.empty()) throw std::invalid_argument("empty logits");
  const double m = *std::max_element(logits.begin(), logits.end());

  std::vector<double> out;
  double sum = 0.0;
  for (double z : logits) {
    out.push_back(std::exp((z - m) / temperature));
    sum += out.back();
  }
  for (double& p : out) p /= sum;
  return out;
}
