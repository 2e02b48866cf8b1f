// Reference solution for `temperature`: a numerically stable softmax of
// logits / temperature.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <vector>

inline std::vector<double> softmax_with_temperature(const std::vector<double>& logits, double temperature) {
  // Written so that NaN fails the test: NaN > 0 is false.
  if (!(temperature > 0.0) || !std::isfinite(temperature)) {
    throw std::invalid_argument("softmax_with_temperature: temperature must be positive and finite");
  }
  if (logits.empty()) {
    throw std::invalid_argument("softmax_with_temperature: logits is empty");
  }

  // The largest finite logit. Because temperature > 0, dividing it by the
  // temperature gives the largest scaled logit, so the shifted exponents
  // (z - max) / T are all <= 0 and exp cannot overflow.
  const double neg_inf = -std::numeric_limits<double>::infinity();
  double max_logit = neg_inf;
  for (double z : logits) {
    if (std::isfinite(z) && z > max_logit) max_logit = z;
  }
  if (max_logit == neg_inf) {
    throw std::invalid_argument("softmax_with_temperature: no finite logit (every token is -inf)");
  }

  std::vector<double> probs(logits.size());
  double sum = 0.0;
  for (std::size_t i = 0; i < logits.size(); ++i) {
    // A banned token (-inf) gets exactly 0. max_logit is finite here, so
    // (-inf) - max_logit would be -inf anyway; the branch makes it explicit
    // and never forms (-inf) - (-inf).
    const double e = logits[i] == neg_inf ? 0.0 : std::exp((logits[i] - max_logit) / temperature);
    probs[i] = e;
    sum += e;
  }
  // The largest logit contributes exp(0) = 1, so sum >= 1.
  for (double& p : probs) p /= sum;
  return probs;
}
