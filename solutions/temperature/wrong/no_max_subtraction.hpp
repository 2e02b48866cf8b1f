// Wrong: the textbook formula, exp(z / T) / sum, without subtracting the
// largest logit first. Fine for small logits, NaN once exp overflows to inf
// (or every exp underflows to 0).
#pragma once

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
  for (double z : logits) any_finite = any_finite || std::isfinite(z);
  if (!any_finite) throw std::invalid_argument("no finite logit");

  std::vector<double> out;
  double sum = 0.0;
  for (double z : logits) {
    out.push_back(std::exp(z / temperature));
    sum += out.back();
  }
  for (double& p : out) p /= sum;
  return out;
}
