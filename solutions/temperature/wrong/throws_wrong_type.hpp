// Wrong: validates every invalid argument but throws std::domain_error;
// the contract asks for std::invalid_argument.
#pragma once

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

inline std::vector<double> softmax_with_temperature(const std::vector<double>& logits, double temperature) {
  if (!(temperature > 0.0) || !std::isfinite(temperature)) {
    throw std::domain_error("temperature must be positive and finite");
  }
  if (logits.empty()) throw std::domain_error("empty logits");
  double m = -std::numeric_limits<double>::infinity();
  for (double z : logits) {
    if (std::isfinite(z) && z > m) m = z;
  }
  if (!std::isfinite(m)) throw std::domain_error("no finite logit");

  std::vector<double> out;
  double sum = 0.0;
  for (double z : logits) {
    out.push_back(std::exp((z - m) / temperature));
    sum += out.back();
  }
  for (double& p : out) p /= sum;
  return out;
}
