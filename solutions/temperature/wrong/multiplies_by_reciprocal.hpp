// Known wrong (temperature): subtracts the largest logit, then multiplies
// the differences by a precomputed 1 / T instead of dividing by T. For a
// temperature below about 5.6e-309 (a subnormal double, such as the
// smallest positive double 4.9e-324) 1 / T overflows to inf, and the
// largest token's 0 * inf is NaN. Dividing by T is exact there.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <vector>

inline std::vector<double> softmax_with_temperature(const std::vector<double>& logits, double temperature) {
  if (std::fpclassify(temperature) == FP_NAN || std::fpclassify(temperature) == FP_INFINITE || temperature <= 0.0) {
    throw std::invalid_argument("temperature must be a positive number");
  }
  if (logits.empty()) throw std::invalid_argument("no logits");

  const double lowest = -std::numeric_limits<double>::infinity();
  std::size_t argmax = logits.size();
  for (std::size_t i = 0; i < logits.size(); ++i) {
    if (logits[i] != lowest && (argmax == logits.size() || logits[i] > logits[argmax])) {
      argmax = i;
    }
  }
  if (argmax == logits.size()) {
    throw std::invalid_argument("all logits are -inf");
  }

  const double inv_t = 1.0 / temperature;
  std::vector<double> out(logits.size(), 0.0);
  double sum = 0.0;
  for (std::size_t i = 0; i < logits.size(); ++i) {
    if (logits[i] == lowest) continue;
    out[i] = std::exp((logits[i] - logits[argmax]) * inv_t);
    sum += out[i];
  }
  for (double& p : out) p /= sum;
  return out;
}
