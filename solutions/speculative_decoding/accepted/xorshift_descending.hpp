// Accepted: a hand-written xorshift64* generator seeded through splitmix64,
// the ratio test u < p / q, and inverse-CDF draws that visit the tokens in
// order of decreasing probability (ties: lower id first) rather than by id.
// A different order maps the uniforms to other tokens, but each token still
// gets exactly its share of [0, 1).
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace xorshift_detail {
struct XorShift64Star {
  std::uint64_t state;
  explicit XorShift64Star(std::uint64_t seed) {
    std::uint64_t z = seed + 0x9e3779b97f4a7c15ull;  // splitmix64, so a zero seed is fine
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    state = (z ^ (z >> 31)) | 1;
  }
  double uniform() {  // in [0, 1)
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return static_cast<double>((state * 0x2545f4914f6cdd1dull) >> 11) * 0x1.0p-53;
  }
};

inline int draw_descending(std::vector<double> weights, XorShift64Star& rng) {
  std::vector<int> order(weights.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return weights[a] > weights[b]; });
  double total = 0;
  for (double w : weights) total += w;
  double u = rng.uniform() * total;
  int last = order.front();
  for (int t : order) {
    if (weights[t] <= 0) break;
    last = t;
    if (u < weights[t]) return t;
    u -= weights[t];
  }
  return last;
}
}  // namespace xorshift_detail

inline std::vector<int> speculative_accept(const std::vector<int>& draft_tokens, const Eigen::MatrixXd& draft_probs,
                                           const Eigen::MatrixXd& target_probs, std::uint64_t seed) {
  const std::size_t k = draft_tokens.size();
  const Eigen::Index v = target_probs.cols();
  const bool shapes_ok = target_probs.rows() == static_cast<Eigen::Index>(k) + 1 &&
                         draft_probs.rows() == static_cast<Eigen::Index>(k) && draft_probs.cols() == v;
  if (!shapes_ok) throw std::invalid_argument("speculative_accept: bad shapes");
  if (std::any_of(draft_tokens.begin(), draft_tokens.end(), [&](int x) { return x < 0 || x >= v; }))
    throw std::invalid_argument("speculative_accept: draft token out of range");

  xorshift_detail::XorShift64Star rng(seed);
  std::vector<int> out;
  for (std::size_t i = 0; i < k; ++i) {
    const int x = draft_tokens[i];
    const double p = target_probs(static_cast<Eigen::Index>(i), x);
    const double q = draft_probs(static_cast<Eigen::Index>(i), x);
    const double u = rng.uniform();
    if (p >= q || u < p / q) {
      out.push_back(x);
      continue;
    }
    std::vector<double> residual(static_cast<std::size_t>(v));
    for (Eigen::Index t = 0; t < v; ++t)
      residual[t] =
          std::max(0.0, target_probs(static_cast<Eigen::Index>(i), t) - draft_probs(static_cast<Eigen::Index>(i), t));
    out.push_back(xorshift_detail::draw_descending(residual, rng));
    return out;
  }
  std::vector<double> bonus;
  for (Eigen::Index t = 0; t < v; ++t) bonus.push_back(target_probs(static_cast<Eigen::Index>(k), t));
  out.push_back(xorshift_detail::draw_descending(bonus, rng));
  return out;
}
