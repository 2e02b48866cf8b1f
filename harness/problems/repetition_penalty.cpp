// Adapter for the repetition_penalty problem: apply_repetition_penalty.
#include <judge_harness/input_watch.hpp>
#include <judge_harness/runner.hpp>

#include <vector>

#include JUDGE_LEARNER_BINDINGS  // repetition_penalty.learner.hpp: the learner's functions, compiled apart

namespace {

judge_harness::Value penalty_op(const judge_harness::Value& args) {
  const std::vector<double> logits = judge_harness::arg_doubles(args, "logits");
  const std::vector<int> generated_ids = judge_harness::arg_ints(args, "generated_ids");
  const judge_harness::InputWatch watch_logits("logits", logits);
  const judge_harness::InputWatch watch_ids("generated_ids", generated_ids);
  return judge_harness::Value::doubles(
      judge_learner::apply_repetition_penalty(logits, generated_ids, judge_harness::arg_number(args, "penalty")));
}

[[maybe_unused]] const bool registered = judge_harness::register_operation("apply_repetition_penalty", penalty_op);
}  // namespace
