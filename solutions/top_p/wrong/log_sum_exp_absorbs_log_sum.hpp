// Known wrong (top_p): probabilities in log space with lse = max +
// log(sum exp(z - max)) and each probability exp(z - lse). Near 1e16 a
// double's spacing is 2, so max + log(2) rounds back to max: two equal
// logits of 1e16 both get probability 1, the first alone reaches p and the
// nucleus loses the second. Keep the two apart: (z - max) - log(sum). The
// sampler is Gumbel-max over the same log-probabilities.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

namespace top_p_log_space {

inline void check_arguments(const std::vector<double>& logits, double p) {
  if (logits.empty()) throw std::invalid_argument("logits is empty");
  if (!(p > 0.0 && p <= 1.0)) throw std::invalid_argument("p must be in (0, 1]");
}

// log_softmax of the nucleus: log-probabilities renormalized over the kept
// tokens, -inf for every other token.
inline std::vector<double> nucleus_log_probs(const std::vector<double>& logits, double p) {
  check_arguments(logits, p);
  const std::size_t n = logits.size();
  const double max_logit = *std::max_element(logits.begin(), logits.end());
  double scaled_sum = 0.0;
  for (double z : logits) scaled_sum += std::exp(z - max_logit);
  const double log_total = max_logit + std::log(scaled_sum);

  std::vector<double> probs(n);
  for (std::size_t i = 0; i < n; ++i) probs[i] = std::exp(logits[i] - log_total);
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return probs[a] > probs[b] || (probs[a] == probs[b] && a < b); });

  std::size_t kept = 0;
  double kept_mass = 0.0;
  while (kept < n && (p == 1.0 || kept_mass < p)) kept_mass += probs[order[kept++]];

  const double log_kept_mass = std::log(kept_mass);
  std::vector<double> result(n, -std::numeric_limits<double>::infinity());
  for (std::size_t r = 0; r < kept; ++r) {
    const int id = order[r];
    if (probs[id] > 0.0) result[id] = (logits[id] - log_total) - log_kept_mass;
  }
  return result;
}

}  // namespace top_p_log_space

inline std::vector<double> top_p_probs(const std::vector<double>& logits, double p) {
  std::vector<double> result = top_p_log_space::nucleus_log_probs(logits, p);
  for (double& value : result) value = std::exp(value);
  return result;
}

inline int top_p_sample(const std::vector<double>& logits, double p, std::uint64_t seed) {
  const std::vector<double> log_probs = top_p_log_space::nucleus_log_probs(logits, p);
  std::mt19937_64 rng(seed);
  int best = -1;
  double best_key = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < log_probs.size(); ++i) {
    if (log_probs[i] == -std::numeric_limits<double>::infinity()) continue;
    // u in (0, 1), never 0 or 1, so the Gumbel noise -log(-log(u)) is finite.
    const double u = (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53;
    const double key = log_probs[i] - std::log(-std::log(u));
    if (best < 0 || key > best_key) best = static_cast<int>(i), best_key = key;
  }
  return best;
}
