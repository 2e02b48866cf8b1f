// Wrong (right outputs, wrong cache): stores each row dimension-major
// (entry i of KV head g in column i * n_kv_heads + g) instead of the
// contract's head-major layout (column g * head_dim + i), and reads it back
// the same way. The outputs are right, but any other code reading the cache
// (the next layer's kernel, a paged allocator) sees scrambled keys.
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
  const int t = cache.length;
  for (int g = 0; g < n_kv; ++g)
    for (int i = 0; i < d; ++i) {
      cache.keys(t, i * n_kv + g) = k(g * d + i);  // the bug: the wrong layout
      cache.values(t, i * n_kv + g) = v(g * d + i);
    }
  ++cache.length;
  const int n = cache.length, group = n_heads / n_kv;
  Eigen::VectorXd out(n_heads * d);
  for (int h = 0; h < n_heads; ++h) {
    const int g = h / group;
    Eigen::VectorXd s(n);
    for (int j = 0; j < n; ++j) {
      double dot = 0.0;
      for (int i = 0; i < d; ++i) dot += q(h * d + i) * cache.keys(j, i * n_kv + g);
      s(j) = dot / std::sqrt(double(d));
    }
    Eigen::ArrayXd w = (s.array() - s.maxCoeff()).exp();
    for (int i = 0; i < d; ++i) {
      double acc = 0.0;
      for (int j = 0; j < n; ++j) acc += w(j) * cache.values(j, i * n_kv + g);
      out(h * d + i) = acc / w.sum();
    }
  }
  return out;
}
