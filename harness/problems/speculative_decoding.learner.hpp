// The functions of a speculative_decoding solution that the adapter (speculative_decoding.cpp) calls, with
// the contract's exact signatures; see judge_harness/learner.hpp.
#pragma once
#include <judge_harness/learner.hpp>

#include <judge_harness/speculative_support.hpp>

#include <Eigen/Dense>
#include <cstdint>
#include <vector>

#ifdef JUDGE_SOLUTION
#include JUDGE_SOLUTION
#endif

JUDGE_LEARNER_FUNCTION(speculative_accept, judge_harness::speculative_support::LearnerAccept);
