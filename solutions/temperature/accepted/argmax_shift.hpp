// Accepted: finds the index of the largest finite logit, subtracts that
// logit from each of the others and divides the differences by T; -inf
// entries are skipped and left at 0.
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

  std::vector<double> out(logits.size(), 0.0);
  double sum = 0.0;
  for (std::size_t i = 0; i < logits.size(); ++i) {
    if (logits[i] == lowest) continue;
    out[i] = std::exp((logits[i] - logits[argmax]) / temperature);
    sum += out[i];
  }
  for (double& p : out) p /= sum;
  return out;
}
