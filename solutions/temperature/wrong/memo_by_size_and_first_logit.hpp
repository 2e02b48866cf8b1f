// Wrong: remembers the last answers, keyed by a cheap fingerprint of the
// input (its size, first logit and temperature) to skip recomputing a
// repeated call. Two different inputs with the same fingerprint collide: the
// second gets the first one's probabilities.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <map>
#include <stdexcept>
#include <tuple>
#include <vector>

inline std::vector<double> softmax_with_temperature(const std::vector<double>& logits, double temperature) {
  if (!(temperature > 0.0) || !std::isfinite(temperature))
    throw std::invalid_argument("softmax_with_temperature: temperature must be positive and finite");
  if (logits.empty()) throw std::invalid_argument("softmax_with_temperature: logits is empty");

  using Fingerprint = std::tuple<std::size_t, double, double>;
  static std::map<Fingerprint, std::vector<double>> memo;  // the bug: a key that does not identify the input
  const Fingerprint key{logits.size(), logits[0], temperature};
  auto known = memo.find(key);
  if (known != memo.end()) return known->second;

  const double neg_inf = -std::numeric_limits<double>::infinity();
  double max_logit = neg_inf;
  for (double z : logits)
    if (std::isfinite(z) && z > max_logit) max_logit = z;
  if (max_logit == neg_inf) throw std::invalid_argument("softmax_with_temperature: no finite logit");
  std::vector<double> probs(logits.size());
  double sum = 0.0;
  for (std::size_t i = 0; i < logits.size(); ++i)
    sum += probs[i] = logits[i] == neg_inf ? 0.0 : std::exp((logits[i] - max_logit) / temperature);
  for (double& p : probs) p /= sum;
  return memo[key] = probs;
}
