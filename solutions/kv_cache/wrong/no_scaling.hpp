// Wrong: forgets the 1/sqrt(head_dim) scale, so scores grow with head_dim
// and the softmax is sharper than the model was trained with.
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
  const int n = cache.length;
  Eigen::VectorXd out(n_heads * d);
  for (int h = 0; h < n_heads; ++h) {
    const int g = h / (n_heads / n_kv);
    Eigen::VectorXd s = cache.keys.block(0, g * d, n, d) * q.segment(h * d, d);  // the bug: no / sqrt(head_dim)
    Eigen::ArrayXd w = (s.array() - s.maxCoeff()).exp();
    out.segment(h * d, d) = cache.values.block(0, g * d, n, d).transpose() * w.matrix() / w.sum();
  }
  return out;
}
