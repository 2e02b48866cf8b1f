// Known wrong (temperature): T = 1 takes a shortcut, "nothing to divide",
// and returns exp(z) / sum without subtracting the largest logit. The
// general path is right; the shortcut overflows (inf / inf = NaN) for
// logits above about 709 and gives 0 / 0 when every logit is below -745.
#pragma once

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

inline std::vector<double> softmax_with_temperature(const std::vector<double>& logits, double temperature) {
  if (!(temperature > 0.0) || !std::isfinite(temperature)) {
    throw std::invalid_argument("temperature must be positive and finite");
  }
  if (logits.empty()) throw std::invalid_argument("empty logits");
  double m = -std::numeric_limits<double>::infinity();
  for (double z : logits) {
    if (std::isfinite(z) && z > m) m = z;
  }
  if (!std::isfinite(m)) throw std::invalid_argument("no finite logit");

  std::vector<double> out;
  double sum = 0.0;
  if (temperature == 1.0) {
    // Plain softmax. Bug: no max subtraction on this path.
    for (double z : logits) {
      out.push_back(std::exp(z));
      sum += out.back();
    }
  } else {
    for (double z : logits) {
      out.push_back(std::exp((z - m) / temperature));
      sum += out.back();
    }
  }
  for (double& p : out) p /= sum;
  return out;
}
