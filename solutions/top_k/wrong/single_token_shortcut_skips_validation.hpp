// Known wrong (top_k): returns [1] for a single finite logit before looking
// at k, so k = 0 or a negative k with one logit is accepted. One token keeps
// all of the mass whatever k is, but the contract still rejects k < 1:
// validate every argument first, then take shortcuts.
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

namespace top_k_detail {

// Orders token ids best first: higher logit first, equal logits by lower id.
// Ids are distinct, so this is a strict total order and the k best are
// always one well-defined set.
struct BetterToken {
  const std::vector<double>& logits;
  bool operator()(int a, int b) const {
    if (logits[a] != logits[b]) return logits[a] > logits[b];
    return a < b;
  }
};

// Returns the token where the cumulative distribution first exceeds
// u * (sum of probs), for u in [0, 1). Tokens of probability 0 are never
// returned; if rounding leaves the target above every partial sum, the last
// token with positive probability is returned.
inline int inverse_cdf(const std::vector<double>& probs, double u) {
  const double target = u * std::accumulate(probs.begin(), probs.end(), 0.0);
  double cumulative = 0.0;
  int last_positive = -1;
  for (std::size_t i = 0; i < probs.size(); ++i) {
    if (!(probs[i] > 0.0)) continue;
    cumulative += probs[i];
    last_positive = static_cast<int>(i);
    if (target < cumulative) return last_positive;
  }
  return last_positive;
}

// 53 random bits from the generator as a double uniform in [0, 1).
inline double uniform01(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

}  // namespace top_k_detail

inline std::vector<double> top_k_probs(const std::vector<double>& logits, int k) {
  if (logits.size() == 1 && std::isfinite(logits[0])) return {1.0};  // Bug: before the checks.
  if (logits.empty()) throw std::invalid_argument("top_k: logits is empty");
  if (k < 1) throw std::invalid_argument("top_k: k must be at least 1");
  const std::size_t n = logits.size();
  const std::size_t kept = std::min(static_cast<std::size_t>(k), n);

  // Move the `kept` best ids to the front, in no particular order.
  std::vector<int> ids(n);
  std::iota(ids.begin(), ids.end(), 0);
  if (kept < n) {
    std::nth_element(ids.begin(), ids.begin() + (kept - 1), ids.end(), top_k_detail::BetterToken{logits});
  }
  ids.resize(kept);

  // Stable softmax over the kept tokens; -inf logits get exp(-inf) = 0.
  double max_logit = -std::numeric_limits<double>::infinity();
  for (int id : ids) max_logit = std::max(max_logit, logits[id]);
  if (max_logit == -std::numeric_limits<double>::infinity()) {
    throw std::invalid_argument("top_k: no finite logit");
  }
  std::vector<double> probs(n, 0.0);
  double sum = 0.0;
  for (int id : ids) {
    probs[id] = std::exp(logits[id] - max_logit);
    sum += probs[id];
  }
  for (int id : ids) probs[id] /= sum;
  return probs;
}

inline int top_k_sample(const std::vector<double>& logits, int k, std::uint64_t seed) {
  const std::vector<double> probs = top_k_probs(logits, k);
  std::mt19937_64 rng(seed);
  return top_k_detail::inverse_cdf(probs, top_k_detail::uniform01(rng));
}
