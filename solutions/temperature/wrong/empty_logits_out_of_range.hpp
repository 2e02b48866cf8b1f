// Wrong: seeds the running maximum with logits.at(0) without checking for
// an empty vector first, so empty logits raise std::out_of_range rather
// than std::invalid_argument.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <vector>

inline std::vector<double> softmax_with_temperature(const std::vector<double>& logits, double temperature) {
  if (!(temperature > 0.0) || !std::isfinite(temperature)) {
    throw std::invalid_argument("temperature must be positive and finite");
  }
  double m = logits.at(0);
  for (std::size_t i = 1; i < logits.size(); ++i) {
    if (logits[i] > m) m = logits[i];
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
