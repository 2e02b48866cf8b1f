// top_p without sorting the vocabulary: the probabilities go into buckets
// by their binary exponent (every probability in a bucket lies in
// [2^e, 2^(e+1))), so the buckets are already in ranking order among
// themselves. Only the buckets the walk reaches are sorted, each on its
// own, and the running sum is added token by token in ranking order as the
// statement walks it. The sample is drawn by inverse transform over the
// kept tokens in id order, with a binary search in their cumulative sums.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <stdexcept>
#include <vector>

inline std::vector<double> top_p_probs(const std::vector<double>& logits, double p) {
  if (logits.empty()) throw std::invalid_argument("logits is empty");
  if (!(p > 0.0 && p <= 1.0)) throw std::invalid_argument("p must be in (0, 1]");
  const double top = *std::max_element(logits.begin(), logits.end());
  std::vector<double> probs(logits.size());
  double total = 0;
  for (std::size_t i = 0; i < logits.size(); ++i) total += probs[i] = std::exp(logits[i] - top);
  for (double& value : probs) value /= total;

  // Highest exponent first; probability 0 (a -inf logit, or an underflow)
  // in a bucket of its own below every other.
  std::map<int, std::vector<int>, std::greater<int>> buckets;
  for (std::size_t i = 0; i < probs.size(); ++i)
    buckets[probs[i] > 0 ? std::ilogb(probs[i]) : std::numeric_limits<int>::min()].push_back(static_cast<int>(i));

  std::vector<char> kept(probs.size(), 0);
  double running = 0;
  bool reached = false;
  for (auto& [exponent, ids] : buckets) {
    std::sort(ids.begin(), ids.end(), [&](int a, int b) { return probs[a] != probs[b] ? probs[a] > probs[b] : a < b; });
    for (int id : ids) {
      kept[id] = 1;
      running += probs[id];
      if (running >= p) {
        reached = true;
        break;
      }
    }
    if (reached) break;
  }
  // p = 1 may end the walk a rounding short of 1: then every token is kept,
  // as the statement says.
  double kept_sum = 0;
  for (std::size_t i = 0; i < probs.size(); ++i) kept_sum += kept[i] ? probs[i] : 0.0;
  std::vector<double> result(probs.size(), 0.0);
  for (std::size_t i = 0; i < probs.size(); ++i)
    if (kept[i]) result[i] = probs[i] / kept_sum;
  return result;
}

inline int top_p_sample(const std::vector<double>& logits, double p, std::uint64_t seed) {
  const std::vector<double> probs = top_p_probs(logits, p);
  std::vector<int> ids;
  std::vector<double> cumulative;
  double sum = 0;
  for (std::size_t i = 0; i < probs.size(); ++i)
    if (probs[i] > 0) {
      sum += probs[i];
      ids.push_back(static_cast<int>(i));
      cumulative.push_back(sum);
    }
  std::mt19937_64 generator(seed);
  const double u = std::uniform_real_distribution<double>(0.0, sum)(generator);
  // The first token whose cumulative sum is above u; the last one if
  // rounding leaves u at the very end.
  std::size_t at = std::upper_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin();
  return ids[std::min(at, ids.size() - 1)];
}
