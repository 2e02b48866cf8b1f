// Adapter for the temperature problem: softmax_with_temperature.
#include <judge_harness/runner.hpp>

#include <vector>

#include JUDGE_LEARNER_BINDINGS  // temperature.learner.hpp: the learner's functions, compiled apart

namespace {

judge_harness::Value softmax_op(const judge_harness::Value& args) {
  return judge_harness::Value::doubles(judge_learner::softmax_with_temperature(
      judge_harness::arg_doubles(args, "logits"), judge_harness::arg_number(args, "temperature")));
}

[[maybe_unused]] const bool registered = judge_harness::register_operation("softmax_with_temperature", softmax_op);
}  // namespace
