// top_k by radix selection on the bits of the logits, sampled through a
// Walker/Vose alias table.
//
// A double's bits, with the sign bit flipped for positives and every bit
// flipped for negatives, order as unsigned integers the way the doubles
// order. Selecting the k-th largest key byte by byte from the top (eight
// counting passes over the candidates that are left) finds the boundary
// value without any comparison sort; the tokens above it are kept, and the
// ones equal to it are kept in id order until k are.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

namespace radix_detail {

inline std::uint64_t order_key(double x) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return (bits >> 63) ? ~bits : bits | (std::uint64_t{1} << 63);
}

// The k-th largest key among `keys` (1 <= k <= keys.size()).
inline std::uint64_t kth_largest_key(std::vector<std::uint64_t> keys, std::size_t k) {
  std::uint64_t prefix = 0;
  for (int shift = 56; shift >= 0; shift -= 8) {
    std::array<std::size_t, 256> count{};
    for (std::uint64_t key : keys) ++count[(key >> shift) & 0xff];
    int byte = 255;
    while (count[byte] < k) k -= count[byte--];
    prefix |= static_cast<std::uint64_t>(byte) << shift;
    std::vector<std::uint64_t> next;
    next.reserve(count[byte]);
    for (std::uint64_t key : keys)
      if (static_cast<int>((key >> shift) & 0xff) == byte) next.push_back(key);
    keys.swap(next);
  }
  return prefix;
}

}  // namespace radix_detail

inline std::vector<double> top_k_probs(const std::vector<double>& logits, int k) {
  if (logits.empty()) throw std::invalid_argument("logits is empty");
  if (k < 1) throw std::invalid_argument("k must be at least 1");
  const std::size_t n = logits.size();
  const std::size_t keep = std::min<std::size_t>(static_cast<std::size_t>(k), n);

  std::vector<std::uint64_t> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = radix_detail::order_key(logits[i]);
  const std::uint64_t boundary = radix_detail::kth_largest_key(keys, keep);

  std::vector<char> kept(n, 0);
  std::size_t taken = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (keys[i] > boundary) kept[i] = 1, ++taken;
  for (std::size_t i = 0; i < n && taken < keep; ++i)
    if (keys[i] == boundary) kept[i] = 1, ++taken;

  double top = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < n; ++i)
    if (kept[i]) top = std::max(top, logits[i]);
  std::vector<double> probs(n, 0.0);
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (kept[i] && logits[i] != -std::numeric_limits<double>::infinity()) sum += probs[i] = std::exp(logits[i] - top);
  for (double& value : probs) value /= sum;
  return probs;
}

inline int top_k_sample(const std::vector<double>& logits, int k, std::uint64_t seed) {
  const std::vector<double> probs = top_k_probs(logits, k);
  // The alias table over the tokens of positive probability only, so no
  // rounding in it can hand out a removed token.
  std::vector<int> ids;
  std::vector<double> scaled;
  for (std::size_t i = 0; i < probs.size(); ++i)
    if (probs[i] > 0) ids.push_back(static_cast<int>(i)), scaled.push_back(probs[i]);
  const std::size_t m = ids.size();
  for (double& value : scaled) value *= static_cast<double>(m);
  std::vector<double> accept(m, 1.0);
  std::vector<std::size_t> alias(m);
  std::vector<std::size_t> small, large;
  for (std::size_t i = 0; i < m; ++i) {
    alias[i] = i;
    (scaled[i] < 1.0 ? small : large).push_back(i);
  }
  while (!small.empty() && !large.empty()) {
    std::size_t s = small.back(), l = large.back();
    small.pop_back();
    accept[s] = scaled[s];
    alias[s] = l;
    scaled[l] -= 1.0 - scaled[s];
    if (scaled[l] < 1.0) {
      large.pop_back();
      small.push_back(l);
    }
  }
  // What is left in either list holds (up to rounding) exactly one column.
  std::mt19937_64 generator(seed);
  std::uniform_int_distribution<std::size_t> column(0, m - 1);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  std::size_t c = column(generator);
  return ids[coin(generator) < accept[c] ? c : alias[c]];
}
