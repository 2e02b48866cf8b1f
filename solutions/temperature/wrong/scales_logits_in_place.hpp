// Wrong: divides the caller's logits by the temperature in place, through
// const_cast, to save a copy. Every answer is right, but the caller's
// logits are now logits / T: the next sampling step, or a second sampler
// reading the same logits, works on numbers that are no longer the model's.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <vector>

inline std::vector<double> softmax_with_temperature(const std::vector<double>& logits, double temperature) {
  if (!(temperature > 0.0) || !std::isfinite(temperature))
    throw std::invalid_argument("softmax_with_temperature: temperature must be positive and finite");
  if (logits.empty()) throw std::invalid_argument("softmax_with_temperature: logits is empty");

  auto& scaled = const_cast<std::vector<double>&>(logits);  // the bug: the caller's vector
  const double neg_inf = -std::numeric_limits<double>::infinity();
  double max_logit = neg_inf;
  for (double z : logits)
    if (std::isfinite(z) && z > max_logit) max_logit = z;
  if (max_logit == neg_inf) throw std::invalid_argument("softmax_with_temperature: no finite logit");

  for (double& z : scaled) z = (z - max_logit) / temperature;
  std::vector<double> probs(logits.size());
  double sum = 0.0;
  for (std::size_t i = 0; i < logits.size(); ++i) sum += probs[i] = std::exp(scaled[i]);
  for (double& p : probs) p /= sum;
  return probs;
}
