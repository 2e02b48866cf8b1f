// Accepted: one pass over the cache per head with an online softmax, the
// way fused attention kernels do it: keep a running maximum m, a running
// normalizer z and a running weighted sum; when a larger score arrives,
// rescale what was accumulated by exp(m_old - m_new).
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <stdexcept>

inline Eigen::VectorXd attention_step(KVCache& cache, const Eigen::VectorXd& q, const Eigen::VectorXd& k,
                                      const Eigen::VectorXd& v, int n_heads) {
  const int d = cache.head_dim;
  const int kv = cache.n_kv_heads;
  const bool heads_ok = n_heads > 0 && n_heads % kv == 0;
  if (!heads_ok) throw std::invalid_argument("bad head counts");
  const Eigen::Index width = static_cast<Eigen::Index>(kv) * d;
  if (q.size() != static_cast<Eigen::Index>(n_heads) * d || k.size() != width || v.size() != width)
    throw std::invalid_argument("bad vector size");
  if (cache.length >= cache.capacity) throw std::invalid_argument("full cache");

  cache.keys.row(cache.length) = k;
  cache.values.row(cache.length) = v;
  cache.length++;

  const int group = n_heads / kv;
  const double scale = 1.0 / std::sqrt(double(d));
  Eigen::VectorXd out(q.size());
  for (int h = 0; h < n_heads; ++h) {
    const Eigen::Index c0 = Eigen::Index(h / group) * d;
    const Eigen::VectorXd qh = q.segment(Eigen::Index(h) * d, d);
    double m = -std::numeric_limits<double>::infinity();
    double z = 0.0;
    Eigen::VectorXd acc = Eigen::VectorXd::Zero(d);
    for (int j = 0; j < cache.length; ++j) {
      const double s = cache.keys.row(j).segment(c0, d).dot(qh) * scale;
      if (s > m) {
        const double shrink = std::exp(m - s);  // 0 on the first row
        z *= shrink;
        acc *= shrink;
        m = s;
      }
      const double w = std::exp(s - m);
      z += w;
      acc += w * cache.values.row(j).segment(c0, d).transpose();
    }
    out.segment(Eigen::Index(h) * d, d) = acc / z;
  }
  return out;
}
