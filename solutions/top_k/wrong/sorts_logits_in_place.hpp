// Wrong: sorts the caller's logits in place, through const_cast, to reuse
// their memory for the ranking; the ids travel in a vector beside them.
// Every answer is right, but the caller's logits come back sorted: the next
// step that reads them (another sampler, a penalty, the log) reads the
// tokens' logits under the wrong ids.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

inline std::vector<double> top_k_probs(const std::vector<double>& logits, int k) {
  if (logits.empty()) throw std::invalid_argument("top_k: logits is empty");
  if (k < 1) throw std::invalid_argument("top_k: k must be at least 1");
  const std::size_t n = logits.size();
  std::vector<std::pair<double, int>> ranked(n);
  for (std::size_t i = 0; i < n; ++i) ranked[i] = {logits[i], static_cast<int>(i)};
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
  });
  auto& sorted = const_cast<std::vector<double>&>(logits);  // the bug: the caller's vector
  std::vector<int> ids(n);
  for (std::size_t r = 0; r < n; ++r) sorted[r] = ranked[r].first, ids[r] = ranked[r].second;

  const std::size_t kept = std::min(static_cast<std::size_t>(k), n);
  if (sorted[0] == -std::numeric_limits<double>::infinity()) throw std::invalid_argument("top_k: no finite logit");
  std::vector<double> probs(n, 0.0);
  double sum = 0.0;
  for (std::size_t r = 0; r < kept; ++r) sum += probs[ids[r]] = std::exp(sorted[r] - sorted[0]);
  for (std::size_t r = 0; r < kept; ++r) probs[ids[r]] /= sum;
  return probs;
}

inline int top_k_sample(const std::vector<double>& logits, int k, std::uint64_t seed) {
  const std::vector<double> probs = top_k_probs(logits, k);
  std::mt19937_64 rng(seed);
  const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53;
  double cumulative = 0.0;
  int last = -1;
  for (std::size_t i = 0; i < probs.size(); ++i) {
    if (!(probs[i] > 0.0)) continue;
    cumulative += probs[i];
    last = static_cast<int>(i);
    if (u < cumulative) return last;
  }
  return last;
}
