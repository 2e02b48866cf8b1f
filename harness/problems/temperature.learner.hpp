// The functions of a temperature solution that the adapter (temperature.cpp) calls, with
// the contract's exact signatures; see judge_harness/learner.hpp.
#pragma once
#include <judge_harness/learner.hpp>

#include <vector>

#ifdef JUDGE_SOLUTION
#include JUDGE_SOLUTION
#endif

JUDGE_LEARNER_FUNCTION(softmax_with_temperature,
                       std::vector<double>(const std::vector<double>& logits, double temperature));
