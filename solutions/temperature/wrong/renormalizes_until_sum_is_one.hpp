// Known wrong (temperature): divides by the sum again and again until the sum
// is exactly 1.0. Rounding need not ever give exactly 1.0: for logits
// [0, 0.5, -0.5] the probabilities come back, after a few divisions, to
// values they had before while their sum is still one unit in the last place
// away from 1, so the loop never ends. One division by the sum is the
// softmax; its sum is 1 to within rounding, which is all the contract asks.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <vector>

inline std::vector<double> softmax_with_temperature(const std::vector<double>& logits, double temperature) {
  if (!(temperature > 0.0) || !std::isfinite(temperature)) throw std::invalid_argument("bad temperature");
  if (logits.empty()) throw std::invalid_argument("empty logits");
  double max_scaled = -std::numeric_limits<double>::infinity();
  for (double z : logits) max_scaled = std::max(max_scaled, z / temperature);
  if (std::isinf(max_scaled)) throw std::invalid_argument("no finite logit");
  std::vector<double> probs(logits.size());
  for (std::size_t i = 0; i < logits.size(); ++i) probs[i] = std::exp(logits[i] / temperature - max_scaled);
  double sum = std::accumulate(probs.begin(), probs.end(), 0.0);
  while (sum != 1.0) {  // Bug: a loop that ends only if rounding allows it.
    for (double& p : probs) p /= sum;
    sum = std::accumulate(probs.begin(), probs.end(), 0.0);
  }
  return probs;
}
