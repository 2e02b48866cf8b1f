// Adapter for the beam_search problem: the learner's beam_search on a toy
// language model described by the case. The models and the oracles
// (exhaustive_search, greedy_search) are in the harness library; see
// judge_harness/beam_search_support.hpp.
#include <judge_harness/runner.hpp>

#include <judge/beam_search.hpp>
#include <judge_harness/beam_search_support.hpp>

#include JUDGE_SOLUTION

namespace {
namespace support = judge_harness::beam_search_support;

// The contract's signature, exactly: a solution with another one does not compile.
support::LearnerBeamSearch* const learner_function = &beam_search;

judge_harness::Value beam_search_op(const judge_harness::Value& args) {
  return support::call_learner(args, learner_function);
}

[[maybe_unused]] const bool registered =
    judge_harness::register_operation("beam_search", beam_search_op) && support::register_oracles();
}  // namespace
