// Wrong: appends correctly but then attends over rows 0..length inclusive
// (`j <= cache.length`), one row past the cached tokens: an empty zero row
// gets a share of the attention and dilutes every output.
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <limits>
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
  // The bug: one row too many (and past the end once the cache is full).
  const int rows = std::min(cache.length + 1, cache.capacity);
  Eigen::VectorXd out(n_heads * d);
  for (int h = 0; h < n_heads; ++h) {
    const int g = h / (n_heads / n_kv);
    Eigen::VectorXd s = cache.keys.block(0, g * d, rows, d) * q.segment(h * d, d) / std::sqrt(double(d));
    Eigen::ArrayXd w = (s.array() - s.maxCoeff()).exp();
    out.segment(h * d, d) = cache.values.block(0, g * d, rows, d).transpose() * w.matrix() / w.sum();
  }
  return out;
}
