// KV cache attention step.
//
// One decoding step of causal self-attention for the newest token:
//   1. append k and v as row cache.length of cache.keys / cache.values,
//      then increment cache.length;
//   2. for every query head h, with g = h / (n_heads / cache.n_kv_heads),
//      return softmax(K_g q_h / sqrt(head_dim)) V_g over rows [0, length),
//      laid out like q (head h in [h * head_dim, (h + 1) * head_dim)).
//
// - Subtract each head's largest score before exp.
// - Work per step must be O(length * n_heads * head_dim).
// - Throw std::invalid_argument if n_heads is not a positive multiple of
//   cache.n_kv_heads, if q, k or v has the wrong size, or if the cache is
//   full (length == capacity), and throw it before touching the cache: a
//   call that throws must leave the cache exactly as it was.
//
// KVCache is provided by the judge (see <judge/kv_cache.hpp>); do not
// define it. `judge show kv_cache` prints the full statement.
#pragma once

#include <judge/kv_cache.hpp>

#include <Eigen/Dense>
#include <cmath>
#include <stdexcept>

inline Eigen::VectorXd attention_step(KVCache& cache, const Eigen::VectorXd& q, const Eigen::VectorXd& k,
                                      const Eigen::VectorXd& v, int n_heads) {
  (void)cache;
  (void)q;
  (void)k;
  (void)v;
  (void)n_heads;
  throw std::logic_error("not implemented yet");
}
