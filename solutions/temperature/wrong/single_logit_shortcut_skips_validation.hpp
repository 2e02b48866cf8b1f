// Known wrong (temperature): returns [1] for a single finite logit before
// looking at the temperature, so T = 0, a negative T, inf or NaN with one
// logit are accepted. The answer does not depend on T there, but the
// contract still rejects an invalid T: validate every argument first, then
// take shortcuts.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

inline std::vector<double> softmax_with_temperature(const std::vector<double>& logits, double temperature) {
  if (logits.size() == 1 && std::isfinite(logits[0])) return {1.0};  // Bug: before the checks.
  if (!(temperature > 0.0) || !std::isfinite(temperature)) throw std::invalid_argument("bad temperature");
  if (logits.empty()) throw std::invalid_argument("empty logits");
  double max_logit = -std::numeric_limits<double>::infinity();
  for (double z : logits) max_logit = std::max(max_logit, z);
  if (std::isinf(max_logit)) throw std::invalid_argument("no finite logit");
  std::vector<double> probs(logits.size());
  double sum = 0.0;
  for (std::size_t i = 0; i < logits.size(); ++i) sum += probs[i] = std::exp((logits[i] - max_logit) / temperature);
  for (double& p : probs) p /= sum;
  return probs;
}
