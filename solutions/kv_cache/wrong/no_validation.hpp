// Wrong: validates nothing. Invalid head counts, wrong vector sizes and a
// full cache produce garbage (or read out of bounds) instead of an error.
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <vector>

inline Eigen::VectorXd attention_step(KVCache& cache, const Eigen::VectorXd& q, const Eigen::VectorXd& k,
                                      const Eigen::VectorXd& v, int n_heads) {
  const int n_kv = cache.n_kv_heads, d = cache.head_dim;
  const int t = cache.length;
  for (int c = 0; c < n_kv * d && c < k.size() && c < v.size(); ++c) {
    cache.keys.coeffRef(t, c) = k.coeff(c);
    cache.values.coeffRef(t, c) = v.coeff(c);
  }
  ++cache.length;
  const int n = cache.length;
  const int group = n_heads > 0 && n_heads >= n_kv ? n_heads / n_kv : 1;
  Eigen::VectorXd out = Eigen::VectorXd::Zero(n_heads > 0 ? n_heads * d : 0);
  std::vector<double> s(n);
  for (int h = 0; h < n_heads; ++h) {
    const int g = std::min(h / group, n_kv - 1);
    double top = -std::numeric_limits<double>::infinity();
    for (int j = 0; j < n; ++j) {
      double dot = 0.0;
      for (int i = 0; i < d && h * d + i < q.size(); ++i) dot += q.coeff(h * d + i) * cache.keys.coeff(j, g * d + i);
      s[j] = dot / std::sqrt(double(d));
      top = std::max(top, s[j]);
    }
    double total = 0.0;
    for (int j = 0; j < n; ++j) total += std::exp(s[j] - top);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < d; ++i) out(h * d + i) += std::exp(s[j] - top) / total * cache.values.coeff(j, g * d + i);
  }
  return out;
}
