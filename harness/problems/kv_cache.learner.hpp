// The functions of a kv_cache solution that the adapter (kv_cache.cpp) calls, with
// the contract's exact signatures; see judge_harness/learner.hpp.
#pragma once
#include <judge_harness/learner.hpp>

#include <judge/kv_cache.hpp>
#include <judge_harness/kv_cache_support.hpp>

#include <algorithm>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#ifdef JUDGE_SOLUTION
#include JUDGE_SOLUTION
#endif

JUDGE_LEARNER_FUNCTION(attention_step,
                       Eigen::VectorXd(KVCache& cache, const Eigen::VectorXd& q, const Eigen::VectorXd& k,
                                       const Eigen::VectorXd& v, int n_heads));
