// Wrong (too slow, right answers): computes each weight as
// exp(s_j - max) / sum_i exp(s_i - max) with the sum recomputed inside the
// loop over rows j. Every output is correct, but a step costs O(length^2)
// exps: the cost a KV cache exists to avoid.
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <stdexcept>
#include <vector>

inline Eigen::VectorXd attention_step(KVCache& cache, const Eigen::VectorXd& q, const Eigen::VectorXd& k,
                                      const Eigen::VectorXd& v, int n_heads) {
  const int n_kv = cache.n_kv_heads, d = cache.head_dim;
  if (n_heads <= 0 || n_heads % n_kv != 0) throw std::invalid_argument("head counts");
  if (q.size() != n_heads * d || k.size() != n_kv * d || v.size() != n_kv * d) throw std::invalid_argument("sizes");
  if (cache.length >= cache.capacity) throw std::invalid_argument("cache full");
  cache.keys.row(cache.length) = k.transpose();
  cache.values.row(cache.length) = v.transpose();
  ++cache.length;
  const int n = cache.length, group = n_heads / n_kv;
  Eigen::VectorXd out = Eigen::VectorXd::Zero(n_heads * d);
  std::vector<double> s(n);
  for (int h = 0; h < n_heads; ++h) {
    const int g = h / group;
    for (int j = 0; j < n; ++j)
      s[j] = cache.keys.row(j).segment(g * d, d).dot(q.segment(h * d, d)) / std::sqrt(double(d));
    const double top = *std::max_element(s.begin(), s.end());
    for (int j = 0; j < n; ++j) {
      double total = 0.0;  // the bug: the same sum, recomputed for every row
      for (int i = 0; i < n; ++i) total += std::exp(s[i] - top);
      const double w = std::exp(s[j] - top) / total;
      out.segment(h * d, d) += w * cache.values.row(j).segment(g * d, d).transpose();
    }
  }
  return out;
}
