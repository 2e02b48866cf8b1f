// Wrong: applies the temperature to the probabilities instead of the
// logits. Dividing every probability by T and renormalizing cancels T, so
// the result is the plain softmax at every temperature.
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
  double m = -std::numeric_limits<double>::infinity();
  for (double z : logits) {
    if (std::isfinite(z) && z > m) m = z;
  }
  if (!std::isfinite(m)) throw std::invalid_argument("no finite logit");

  std::vector<double> out;
  double sum = 0.0;
  for (double z : logits) {
    out.push_back(std::exp(z - m));
    sum += out.back();
  }
  double tempered_sum = 0.0;
  for (double& p : out) {
    p = p / sum / temperature;
    tempered_sum += p;
  }
  for (double& p : out) p /= tempered_sum;
  return out;
}
