// Wrong: folds the 1/sqrt(head_dim) scale into the caller's query, through
// const_cast, to save a multiplication per score. Every output is right,
// but the caller's q is now q / sqrt(head_dim): a caller that keeps it (to
// log it, or to run the step again) holds numbers the model never produced.
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <stdexcept>

inline Eigen::VectorXd attention_step(KVCache& cache, const Eigen::VectorXd& q, const Eigen::VectorXd& k,
                                      const Eigen::VectorXd& v, int n_heads) {
  const int n_kv = cache.n_kv_heads;
  const int d = cache.head_dim;
  if (n_heads <= 0 || n_heads % n_kv != 0)
    throw std::invalid_argument("attention_step: n_heads must be a positive multiple of n_kv_heads");
  const Eigen::Index q_size = static_cast<Eigen::Index>(n_heads) * d;
  const Eigen::Index kv_size = static_cast<Eigen::Index>(n_kv) * d;
  if (q.size() != q_size || k.size() != kv_size || v.size() != kv_size)
    throw std::invalid_argument("attention_step: q, k or v has the wrong size");
  if (cache.length >= cache.capacity) throw std::invalid_argument("attention_step: the cache is full");

  cache.keys.row(cache.length) = k.transpose();
  cache.values.row(cache.length) = v.transpose();
  ++cache.length;

  auto& scaled_q = const_cast<Eigen::VectorXd&>(q);  // the bug: the caller's query
  scaled_q /= std::sqrt(static_cast<double>(d));
  const Eigen::Index n = cache.length;
  const int group = n_heads / n_kv;
  Eigen::VectorXd out(q_size);
  for (int h = 0; h < n_heads; ++h) {
    const Eigen::Index g = h / group;
    const auto keys = cache.keys.block(0, g * d, n, d);
    const auto values = cache.values.block(0, g * d, n, d);
    Eigen::VectorXd scores = keys * scaled_q.segment(static_cast<Eigen::Index>(h) * d, d);
    Eigen::ArrayXd weights = (scores.array() - scores.maxCoeff()).exp();
    out.segment(static_cast<Eigen::Index>(h) * d, d) = values.transpose() * weights.matrix() / weights.sum();
  }
  return out;
}
