// The functions of a top_p solution that the adapter (top_p.cpp) calls, with
// the contract's exact signatures; see judge_harness/learner.hpp.
#pragma once
#include <judge_harness/learner.hpp>

#include <judge_harness/top_p_support.hpp>

#include <cstdint>
#include <vector>

#ifdef JUDGE_SOLUTION
#include JUDGE_SOLUTION
#endif

JUDGE_LEARNER_FUNCTION(top_p_probs, std::vector<double>(const std::vector<double>& logits, double p));
JUDGE_LEARNER_FUNCTION(top_p_sample, int(const std::vector<double>& logits, double p, std::uint64_t seed));
