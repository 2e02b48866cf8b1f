// Accepted: handles each key/value head once for its whole group of query
// heads. The group's queries form a (group x d) matrix Q; the scores are
// Q K^T (group x length), a row-wise stable softmax turns them into
// weights, and the outputs are weights V. Same O(length * n_heads * d).
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <stdexcept>

inline Eigen::VectorXd attention_step(KVCache& cache, const Eigen::VectorXd& q, const Eigen::VectorXd& k,
                                      const Eigen::VectorXd& v, int n_heads) {
  using Eigen::Index;
  const Index d = cache.head_dim;
  const Index kv = cache.n_kv_heads;
  if (n_heads <= 0) throw std::invalid_argument("n_heads <= 0");
  if (n_heads % kv) throw std::invalid_argument("n_heads % n_kv_heads != 0");
  if (q.size() != n_heads * d) throw std::invalid_argument("q size");
  if (k.size() != kv * d || v.size() != kv * d) throw std::invalid_argument("k/v size");
  if (cache.length >= cache.capacity) throw std::invalid_argument("cache full");

  const Index t = cache.length;
  cache.keys.row(t) = k.transpose();
  cache.values.row(t) = v.transpose();
  cache.length = static_cast<int>(t + 1);

  const Index n = t + 1;
  const Index group = n_heads / kv;
  Eigen::VectorXd out(n_heads * d);
  for (Index g = 0; g < kv; ++g) {
    // Row r of Q is query head g * group + r: the heads that map to g.
    Eigen::MatrixXd Q(group, d);
    for (Index r = 0; r < group; ++r) Q.row(r) = q.segment((g * group + r) * d, d).transpose();
    const auto K = cache.keys.block(0, g * d, n, d);
    const auto V = cache.values.block(0, g * d, n, d);
    Eigen::MatrixXd scores = (Q * K.transpose()) / std::sqrt(static_cast<double>(d));
    Eigen::VectorXd top = scores.rowwise().maxCoeff();
    Eigen::MatrixXd weights = (scores.colwise() - top).array().exp().matrix();
    Eigen::VectorXd sums = weights.rowwise().sum();
    Eigen::MatrixXd heads = (weights * V).array().colwise() / sums.array();
    for (Index r = 0; r < group; ++r) out.segment((g * group + r) * d, d) = heads.row(r).transpose();
  }
  return out;
}
