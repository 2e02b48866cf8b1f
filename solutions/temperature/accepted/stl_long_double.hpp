// Accepted: the same stable softmax written with <algorithm>/<numeric>,
// accumulating the normalizer in long double.
#pragma once

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <vector>

inline std::vector<double> softmax_with_temperature(const std::vector<double>& logits, double temperature) {
  if (!std::isfinite(temperature) || temperature <= 0.0) {
    throw std::invalid_argument("bad temperature");
  }
  if (logits.empty()) throw std::invalid_argument("logits must not be empty");
  // -inf entries never win max_element unless every entry is -inf.
  const double m = *std::max_element(logits.begin(), logits.end());
  if (!std::isfinite(m)) throw std::invalid_argument("no finite logit");

  std::vector<double> weights;
  weights.reserve(logits.size());
  std::transform(logits.begin(), logits.end(), std::back_inserter(weights),
                 [&](double z) { return std::exp((z - m) / temperature); });
  const long double total = std::accumulate(weights.begin(), weights.end(), 0.0L);
  std::transform(weights.begin(), weights.end(), weights.begin(),
                 [&](double w) { return static_cast<double>(w / total); });
  return weights;
}
