// Wrong: appends k and v first and checks n_heads and q only afterwards,
// where the attention needs them. An invalid n_heads or q still throws
// std::invalid_argument, but the cache already holds one more token, so
// the caller's cache is corrupted by a call that failed.
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <stdexcept>

inline Eigen::VectorXd attention_step(KVCache& cache, const Eigen::VectorXd& q, const Eigen::VectorXd& k,
                                      const Eigen::VectorXd& v, int n_heads) {
  const int n_kv = cache.n_kv_heads;
  const int d = cache.head_dim;

  // 1. Append the newest token's key and value.
  if (cache.length >= cache.capacity) throw std::invalid_argument("the cache is full");
  if (k.size() != n_kv * d || v.size() != n_kv * d) throw std::invalid_argument("k and v need n_kv_heads * head_dim");
  cache.keys.row(cache.length) = k.transpose();
  cache.values.row(cache.length) = v.transpose();
  ++cache.length;

  // 2. Attend over every cached token.
  if (n_heads <= 0 || n_heads % n_kv != 0) throw std::invalid_argument("n_heads must be a multiple of n_kv_heads");
  if (q.size() != n_heads * d) throw std::invalid_argument("q needs n_heads * head_dim entries");
  const int group = n_heads / n_kv;
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  const int n = cache.length;
  Eigen::VectorXd out(n_heads * d);
  for (int h = 0; h < n_heads; ++h) {
    const int g = h / group;
    Eigen::VectorXd scores = cache.keys.block(0, g * d, n, d) * q.segment(h * d, d) * scale;
    Eigen::ArrayXd w = (scores.array() - scores.maxCoeff()).exp();
    out.segment(h * d, d) = cache.values.block(0, g * d, n, d).transpose() * (w / w.sum()).matrix();
  }
  return out;
}
