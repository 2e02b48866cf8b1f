// Wrong: starts the running maximum at 0.0 instead of -inf. When every
// logit is far below 0 the "max" stays 0, every exp underflows to 0 and the
// normalization divides 0 by 0.
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
  bool any_finite = false;
  double m = 0.0;
  for (double z : logits) {
    if (std::isfinite(z)) {
      any_finite = true;
      m = std::max(m, z);
    }
  }
  if (!any_finite) throw std::invalid_argument("no finite logit");

  std::vector<double> out;
  double sum = 0.0;
  for (double z : logits) {
    out.push_back(std::exp((z - m) / temperature));
    sum += out.back();
  }
  for (double& p : out) p /= sum;
  return out;
}
