// The functions of a beam_search solution that the adapter (beam_search.cpp) calls, with
// the contract's exact signatures; see judge_harness/learner.hpp.
#pragma once
#include <judge_harness/learner.hpp>

#include <judge/beam_search.hpp>
#include <judge_harness/beam_search_support.hpp>

#ifdef JUDGE_SOLUTION
#include JUDGE_SOLUTION
#endif

JUDGE_LEARNER_FUNCTION(beam_search, judge_harness::beam_search_support::LearnerBeamSearch);
