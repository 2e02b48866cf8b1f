// Accepted: normalizes in log space. log p_i = z_i / T - logsumexp(z / T),
// with the log-sum-exp computed stably around the largest scaled logit m
// and kept as m and log(sum) apart: (s - m) - log(sum), never s - (m +
// log(sum)), whose sum rounds log(sum) away when m is near 1e16.
#pragma once

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

inline std::vector<double> softmax_with_temperature(const std::vector<double>& logits, double temperature) {
  if (std::isnan(temperature) || temperature <= 0.0 || std::isinf(temperature)) {
    throw std::invalid_argument("temperature must be positive and finite");
  }
  if (logits.empty()) throw std::invalid_argument("empty logits");

  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> scaled;
  scaled.reserve(logits.size());
  double m = -inf;
  for (double z : logits) {
    const double s = z / temperature;  // -inf stays -inf
    scaled.push_back(s);
    if (s > m) m = s;
  }
  if (m == -inf) throw std::invalid_argument("no finite logit");

  double sum = 0.0;
  for (double s : scaled) sum += std::exp(s - m);
  const double log_sum = std::log(sum);

  std::vector<double> out;
  out.reserve(scaled.size());
  for (double s : scaled) out.push_back(std::exp((s - m) - log_sum));
  return out;
}
