// Known wrong (kv_cache): adds up the softmax denominator in a float. Each
// addition rounds to float's 24 bits: past a sum of 512, a weight just below
// 1 (more than 1 - 4.1e-5) adds exactly 1, so over a cache of thousands of
// such rows the sum drifts far past the tolerance of 1e-6 (the weighted
// values, summed in double, no longer match their normalizer). Accumulate in
// double.
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
    float denominator = 0.0f;  // Bug: float accumulator.
    for (Eigen::Index j = 0; j < n; ++j) denominator += static_cast<float>(weights(j));
    out.segment(static_cast<Eigen::Index>(h) * d, d) = values.transpose() * weights.matrix() / denominator;
  }
  return out;
}
