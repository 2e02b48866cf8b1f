// Softmax with temperature.
//
// Return softmax(logits / temperature): p[i] = exp(logits[i] / T) divided by
// the sum over j of exp(logits[j] / T), same length and order as `logits`.
//
// - A logit of -inf is a banned token: its probability is exactly 0.
// - Throw std::invalid_argument if temperature <= 0 or is not finite, if
//   logits is empty, or if no logit is finite.
// - Stay finite for large logits and tiny temperatures (1e4 at T = 1e-3):
//   subtract the largest finite scaled logit before calling exp.
//
// `judge show temperature` prints the full statement.
#pragma once

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

inline std::vector<double> softmax_with_temperature(const std::vector<double>& logits, double temperature) {
  (void)logits;
  (void)temperature;
  throw std::logic_error("not implemented yet");
}
