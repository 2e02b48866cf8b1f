// Wrong: exponentiates the raw scores. Fine for small scores, but a score of
// 1e4 makes exp overflow to inf (inf / inf is NaN), and scores of -1e4 make
// every exp 0 (0 / 0 is NaN).
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <stdexcept>

inline Eigen::VectorXd attention_step(KVCache& cache, const Eigen::VectorXd& q, const Eigen::VectorXd& k,
                                      const Eigen::VectorXd& v, int n_heads) {
  const int n_kv = cache.n_kv_heads, d = cache.head_dim;
  if (n_heads <= 0 || n_heads % n_kv != 0) throw std::invalid_argument("head counts");
  if (q.size() != n_heads * d || k.size() != n_kv * d || v.size() != n_kv * d) throw std::invalid_argument("sizes");
  if (cache.length >= cache.capacity) throw std::invalid_argument("cache full");
  cache.keys.row(cache.length) = k.transpose();
  cache.values.row(cache.length) = v.transpose();
  ++cache.length;
  const int n = cache.length, group = n_heads / n_kv;
  Eigen::VectorXd out(n_heads * d);
  for (int h = 0; h < n_heads; ++h) {
    const int g = h / group;
    Eigen::VectorXd s = cache.keys.block(0, g * d, n, d) * q.segment(h * d, d) / std::sqrt(double(d));
    Eigen::ArrayXd w = s.array().exp();  // the bug: no shift by the maximum
    out.segment(h * d, d) = cache.values.block(0, g * d, n, d).transpose() * w.matrix() / w.sum();
  }
  return out;
}
