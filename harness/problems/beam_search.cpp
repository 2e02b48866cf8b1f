// Adapter for the beam_search problem: the learner's beam_search on a toy
// language model described by the case. The models and the oracles
// (exhaustive_search, greedy_search) are in the harness library; see
// judge_harness/beam_search_support.hpp.
#include <judge_harness/runner.hpp>

#include <judge/beam_search.hpp>
#include <judge_harness/beam_search_support.hpp>

#include JUDGE_LEARNER_BINDINGS  // beam_search.learner.hpp: the learner's functions, compiled apart

namespace {
namespace support = judge_harness::beam_search_support;

judge_harness::Value beam_search_op(const judge_harness::Value& args) {
  return support::call_learner(args, judge_learner::beam_search);
}

// judge lab --beam: the learner's beam_search on the lab's trained model.
judge_harness::Value lab_beam_search_op(const judge_harness::Value& args) {
  return support::call_learner_on_lab_model(args, judge_learner::beam_search);
}

[[maybe_unused]] const bool registered = judge_harness::register_operation("beam_search", beam_search_op) &&
                                         judge_harness::register_operation("lab_beam_search", lab_beam_search_op) &&
                                         support::register_oracles();
}  // namespace
