// Known wrong (temperature): normalizes in log space with lse = m +
// log(sum) and p_i = exp(s_i - lse). Near 1e16 a double's spacing is 2, so
// m + log(2) rounds back to m and every token of the largest scaled logit
// gets exp(0) = 1: two equal logits of 1e16 give [1, 1], not [0.5, 0.5].
// Keep the two apart: exp((s_i - m) - log(sum)).
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
  const double lse = m + std::log(sum);

  std::vector<double> out;
  out.reserve(scaled.size());
  for (double s : scaled) out.push_back(std::exp(s - lse));
  return out;
}
