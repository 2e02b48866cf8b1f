// Known wrong (kv_cache): a shortcut for the first step. With one cached row
// every softmax weight is 1, so each head's output is its group's v; the
// shortcut returns that before checking n_heads and the size of q, so an
// invalid n_heads or q on an empty cache is answered instead of rejected.
// Validate every argument before any special case.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <stdexcept>

inline Eigen::VectorXd attention_step(KVCache& cache, const Eigen::VectorXd& q, const Eigen::VectorXd& k,
                                      const Eigen::VectorXd& v, int n_heads) {
  const int n_kv = cache.n_kv_heads;
  const int d = cache.head_dim;
  if (cache.length == 0) {  // Bug: the first step skips validating n_heads and q.
    if (k.size() != static_cast<Eigen::Index>(n_kv) * d || v.size() != k.size() || cache.capacity < 1) {
      throw std::invalid_argument("attention_step: k or v has the wrong size, or no capacity");
    }
    cache.keys.row(0) = k.transpose();
    cache.values.row(0) = v.transpose();
    cache.length = 1;
    const Eigen::Index heads = q.size() / d;
    const Eigen::Index group = std::max<Eigen::Index>(1, heads / n_kv);
    Eigen::VectorXd out = Eigen::VectorXd::Zero(q.size());
    for (Eigen::Index h = 0; h < heads; ++h) {
      const Eigen::Index g = std::min<Eigen::Index>(h / group, n_kv - 1);
      out.segment(h * d, d) = v.segment(g * d, d);
    }
    return out;
  }
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
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
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
