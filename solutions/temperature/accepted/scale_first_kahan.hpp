// Accepted: divides by the temperature first, then subtracts the largest
// scaled value, and sums with Kahan compensation.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <vector>

inline std::vector<double> softmax_with_temperature(const std::vector<double>& logits, double temperature) {
  if (!(temperature > 0.0 && temperature < std::numeric_limits<double>::infinity())) {
    throw std::invalid_argument("temperature must be in (0, inf)");
  }
  const std::size_t n = logits.size();
  if (n == 0) throw std::invalid_argument("logits is empty");

  std::vector<double> out(n);
  bool any_finite = false;
  double top = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = logits[i] / temperature;
    if (std::isfinite(out[i])) {
      if (!any_finite || out[i] > top) top = out[i];
      any_finite = true;
    }
  }
  if (!any_finite) throw std::invalid_argument("every logit is -inf");

  double sum = 0.0, carry = 0.0;  // Kahan summation
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = std::exp(out[i] - top);
    const double y = out[i] - carry;
    const double t = sum + y;
    carry = (t - sum) - y;
    sum = t;
  }
  const double inv = 1.0 / sum;
  for (double& p : out) p *= inv;
  return out;
}
