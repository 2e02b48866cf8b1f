// Wrong: attends over the rows already in the cache and appends the new key
// and value only afterwards, so the newest token never sees itself. At the
// first step there is nothing to attend over and the result is 0 / 0.
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <stdexcept>

inline Eigen::VectorXd attention_step(KVCache& cache, const Eigen::VectorXd& q, const Eigen::VectorXd& k,
                                      const Eigen::VectorXd& v, int n_heads) {
  const int n_kv = cache.n_kv_heads, d = cache.head_dim;
  if (n_heads <= 0 || n_heads % n_kv != 0) throw std::invalid_argument("head counts");
  if (q.size() != n_heads * d || k.size() != n_kv * d || v.size() != n_kv * d) throw std::invalid_argument("sizes");
  if (cache.length >= cache.capacity) throw std::invalid_argument("cache full");
  const int n = cache.length, group = n_heads / n_kv;
  Eigen::VectorXd out(n_heads * d);
  for (int h = 0; h < n_heads; ++h) {
    const int g = h / group;
    double top = -std::numeric_limits<double>::infinity();
    Eigen::VectorXd s(n);
    for (int j = 0; j < n; ++j) {
      s(j) = cache.keys.row(j).segment(g * d, d).dot(q.segment(h * d, d)) / std::sqrt(double(d));
      top = std::max(top, s(j));
    }
    double total = 0.0;
    Eigen::VectorXd acc = Eigen::VectorXd::Zero(d);
    for (int j = 0; j < n; ++j) {
      const double w = std::exp(s(j) - top);
      total += w;
      acc += w * cache.values.row(j).segment(g * d, d).transpose();
    }
    out.segment(h * d, d) = acc / total;
  }
  // The bug: the append belongs before the attention.
  cache.keys.row(cache.length) = k.transpose();
  cache.values.row(cache.length) = v.transpose();
  ++cache.length;
  return out;
}
