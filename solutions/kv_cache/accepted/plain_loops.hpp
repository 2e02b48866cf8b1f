// Accepted: plain loops over std::vector, no Eigen expressions. Two passes
// per head: the scores and their maximum, then the weights and the
// weighted sum of values, normalized once at the end.
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

inline Eigen::VectorXd attention_step(KVCache& cache, const Eigen::VectorXd& q, const Eigen::VectorXd& k,
                                      const Eigen::VectorXd& v, int n_heads) {
  const long kv_heads = cache.n_kv_heads;
  const long d = cache.head_dim;
  if (n_heads < 1 || n_heads % kv_heads != 0)
    throw std::invalid_argument("n_heads must be a positive multiple of n_kv_heads");
  if (q.size() != n_heads * d) throw std::invalid_argument("q has the wrong size");
  if (k.size() != kv_heads * d) throw std::invalid_argument("k has the wrong size");
  if (v.size() != kv_heads * d) throw std::invalid_argument("v has the wrong size");
  if (cache.length == cache.capacity) throw std::invalid_argument("cache is full");

  const long row = cache.length;
  for (long c = 0; c < kv_heads * d; ++c) {
    cache.keys(row, c) = k(c);
    cache.values(row, c) = v(c);
  }
  cache.length += 1;
  const long n = cache.length;
  const long heads_per_kv = n_heads / kv_heads;
  const double inv_sqrt_d = 1.0 / std::sqrt(static_cast<double>(d));

  Eigen::VectorXd out(n_heads * d);
  std::vector<double> scores(n);
  std::vector<double> acc(d);
  for (long h = 0; h < n_heads; ++h) {
    const long col = (h / heads_per_kv) * d;  // first column of this head's KV head
    double top = -std::numeric_limits<double>::infinity();
    for (long j = 0; j < n; ++j) {
      double dot = 0.0;
      for (long i = 0; i < d; ++i) dot += q(h * d + i) * cache.keys(j, col + i);
      scores[j] = dot * inv_sqrt_d;
      if (scores[j] > top) top = scores[j];
    }
    double total = 0.0;
    for (long i = 0; i < d; ++i) acc[i] = 0.0;
    for (long j = 0; j < n; ++j) {
      const double w = std::exp(scores[j] - top);
      total += w;
      for (long i = 0; i < d; ++i) acc[i] += w * cache.values(j, col + i);
    }
    for (long i = 0; i < d; ++i) out(h * d + i) = acc[i] / total;
  }
  return out;
}
