// The functions of a top_k solution that the adapter (top_k.cpp) calls, with
// the contract's exact signatures; see judge_harness/learner.hpp.
#pragma once
#include <judge_harness/learner.hpp>

#include <cstdint>
#include <vector>

#ifdef JUDGE_SOLUTION
#include JUDGE_SOLUTION
#endif

JUDGE_LEARNER_FUNCTION(top_k_probs, std::vector<double>(const std::vector<double>& logits, int k));
JUDGE_LEARNER_FUNCTION(top_k_sample, int(const std::vector<double>& logits, int k, std::uint64_t seed));
