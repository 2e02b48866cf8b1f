// The functions of a repetition_penalty solution that the adapter (repetition_penalty.cpp) calls, with
// the contract's exact signatures; see judge_harness/learner.hpp.
#pragma once
#include <judge_harness/learner.hpp>

#include <vector>

#ifdef JUDGE_SOLUTION
#include JUDGE_SOLUTION
#endif

JUDGE_LEARNER_FUNCTION(apply_repetition_penalty,
                       std::vector<double>(const std::vector<double>& logits, const std::vector<int>& generated_ids,
                                           double penalty));
