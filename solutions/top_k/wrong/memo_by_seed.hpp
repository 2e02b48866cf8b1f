// Wrong: remembers each seed's token, to skip the work when a seed comes
// back. Every first draw is right, but a seed seen before returns the token
// it drew for other logits or another k, possibly one this call's
// distribution gives probability 0.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <unordered_map>
#include <vector>

inline std::vector<double> top_k_probs(const std::vector<double>& logits, int k) {
  if (logits.empty()) throw std::invalid_argument("top_k: logits is empty");
  if (k < 1) throw std::invalid_argument("top_k: k must be at least 1");
  std::vector<int> ids(logits.size());
  std::iota(ids.begin(), ids.end(), 0);
  std::sort(ids.begin(), ids.end(),
            [&](int a, int b) { return logits[a] > logits[b] || (logits[a] == logits[b] && a < b); });
  if (logits[ids[0]] == -std::numeric_limits<double>::infinity()) throw std::invalid_argument("top_k: no finite logit");
  const std::size_t kept = std::min(static_cast<std::size_t>(k), ids.size());
  std::vector<double> probs(logits.size(), 0.0);
  double sum = 0.0;
  for (std::size_t r = 0; r < kept; ++r) sum += probs[ids[r]] = std::exp(logits[ids[r]] - logits[ids[0]]);
  for (std::size_t r = 0; r < kept; ++r) probs[ids[r]] /= sum;
  return probs;
}

inline int top_k_sample(const std::vector<double>& logits, int k, std::uint64_t seed) {
  static std::unordered_map<std::uint64_t, int> drawn;  // the bug: keyed by the seed alone
  const std::vector<double> probs = top_k_probs(logits, k);
  auto known = drawn.find(seed);
  if (known != drawn.end()) return known->second;
  std::mt19937_64 rng(seed);
  const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53;
  double cumulative = 0.0;
  int last = -1;
  for (std::size_t i = 0; i < probs.size(); ++i) {
    if (!(probs[i] > 0.0)) continue;
    cumulative += probs[i];
    last = static_cast<int>(i);
    if (u < cumulative) break;
  }
  return drawn[seed] = last;
}
