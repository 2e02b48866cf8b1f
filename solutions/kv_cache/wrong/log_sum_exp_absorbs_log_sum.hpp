// Known wrong (kv_cache): computes lse = max + log(sum of exp(score - max))
// per head and each weight as exp(score - lse). Near 1e16 a double's spacing
// is 2, so max + log(2) rounds back to max and two equal scores of 1e16 both
// get weight exp(0) = 1 instead of 0.5. Keep the two apart:
// exp((score - max) - log(sum)).
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace kv_detail {
inline void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("attention_step: " + what);
}
}  // namespace kv_detail

inline Eigen::VectorXd attention_step(KVCache& cache, const Eigen::VectorXd& q, const Eigen::VectorXd& k,
                                      const Eigen::VectorXd& v, int n_heads) {
  const int d = cache.head_dim, kv = cache.n_kv_heads;
  kv_detail::require(n_heads >= 1, "n_heads must be positive");
  kv_detail::require(n_heads % kv == 0, "n_heads must be a multiple of n_kv_heads");
  kv_detail::require(q.size() == static_cast<Eigen::Index>(n_heads) * d, "q size");
  kv_detail::require(k.size() == static_cast<Eigen::Index>(kv) * d, "k size");
  kv_detail::require(v.size() == static_cast<Eigen::Index>(kv) * d, "v size");
  kv_detail::require(cache.length < cache.capacity, "cache is full");

  const int t = cache.length;
  for (int g = 0; g < kv; ++g) {
    cache.keys.row(t).segment(g * d, d) = k.segment(g * d, d).transpose();
    cache.values.row(t).segment(g * d, d) = v.segment(g * d, d).transpose();
  }
  cache.length = t + 1;

  Eigen::VectorXd out = Eigen::VectorXd::Zero(q.size());
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  Eigen::VectorXd s(cache.length);
  for (int h = 0; h < n_heads; ++h) {
    const int g = h / (n_heads / kv);
    for (int j = 0; j < cache.length; ++j) s(j) = scale * cache.keys.row(j).segment(g * d, d).dot(q.segment(h * d, d));
    const double m = s.maxCoeff();
    const double lse = m + std::log((s.array() - m).exp().sum());
    for (int j = 0; j < cache.length; ++j)
      out.segment(h * d, d) += std::exp(s(j) - lse) * cache.values.row(j).segment(g * d, d).transpose();
  }
  return out;
}
