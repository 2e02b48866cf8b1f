// The type the kv_cache problem provides. The judge declares it before it
// includes a solution; a solution uses it and never defines it.
#ifndef JUDGE_KV_CACHE_HPP
#define JUDGE_KV_CACHE_HPP

#include <Eigen/Dense>

// The keys and values of every token decoded so far, for one layer.
// Row t holds token t: n_kv_heads blocks of head_dim numbers, head g in
// columns [g * head_dim, (g + 1) * head_dim).
struct KVCache {
  int n_kv_heads, head_dim, capacity;
  int length = 0;          // rows [0, length) hold the cached tokens
  Eigen::MatrixXd keys;    // capacity x (n_kv_heads * head_dim)
  Eigen::MatrixXd values;  // capacity x (n_kv_heads * head_dim)

  // An empty cache with room for `capacity` tokens, zero-filled.
  KVCache(int capacity, int n_kv_heads, int head_dim)
      : n_kv_heads(n_kv_heads),
        head_dim(head_dim),
        capacity(capacity),
        keys(Eigen::MatrixXd::Zero(capacity, n_kv_heads * head_dim)),
        values(Eigen::MatrixXd::Zero(capacity, n_kv_heads * head_dim)) {}
};

#endif  // JUDGE_KV_CACHE_HPP
