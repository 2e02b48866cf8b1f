// Wrong: keeps the score scale in a function-local static, computed from the
// first call's head_dim; a later call with another head_dim is scaled by
// the old one. Nothing a call computes may outlive it.
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <stdexcept>

inline Eigen::VectorXd attention_step(KVCache& cache, const Eigen::VectorXd& q, const Eigen::VectorXd& k,
                                      const Eigen::VectorXd& v, int n_heads) {
  const int n_kv = cache.n_kv_heads;
  const int d = cache.head_dim;
  if (n_heads <= 0 || n_heads % n_kv != 0) {
    throw std::invalid_argument("attention_step: n_heads must be a positive multiple of n_kv_heads");
  }
  // Sizes as Eigen::Index: n_heads * d in int could overflow for huge models.
  const Eigen::Index q_size = static_cast<Eigen::Index>(n_heads) * d;
  const Eigen::Index kv_size = static_cast<Eigen::Index>(n_kv) * d;
  if (q.size() != q_size || k.size() != kv_size || v.size() != kv_size) {
    throw std::invalid_argument("attention_step: q, k or v has the wrong size");
  }
  if (cache.length >= cache.capacity) {
    throw std::invalid_argument("attention_step: the cache is full");
  }

  // Append first: the new token attends to itself.
  cache.keys.row(cache.length) = k.transpose();
  cache.values.row(cache.length) = v.transpose();
  ++cache.length;

  const Eigen::Index n = cache.length;
  const int group = n_heads / n_kv;  // query heads per key/value head
  // Computed once, on the first call: every later cache is scaled by the
  // first one's head_dim.
  static const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  Eigen::VectorXd out(q_size);
  for (int h = 0; h < n_heads; ++h) {
    const int g = h / group;  // consecutive query heads share a KV head
    const auto keys = cache.keys.block(0, static_cast<Eigen::Index>(g) * d, n, d);
    const auto values = cache.values.block(0, static_cast<Eigen::Index>(g) * d, n, d);
    // One score per cached token: O(length * head_dim) for this head.
    Eigen::VectorXd scores = keys * q.segment(static_cast<Eigen::Index>(h) * d, d) * scale;
    // Stable softmax: the largest score becomes exp(0) = 1.
    Eigen::ArrayXd weights = (scores.array() - scores.maxCoeff()).exp();
    out.segment(static_cast<Eigen::Index>(h) * d, d) = values.transpose() * weights.matrix() / weights.sum();
  }
  return out;
}
