// Adapter for the temperature problem: softmax_with_temperature.
#include <judge_harness/input_watch.hpp>
#include <judge_harness/runner.hpp>

#include <vector>

#include JUDGE_LEARNER_BINDINGS  // temperature.learner.hpp: the learner's functions, compiled apart

namespace {

judge_harness::Value softmax_op(const judge_harness::Value& args) {
  const std::vector<double> logits = judge_harness::arg_doubles(args, "logits");
  const judge_harness::InputWatch watch("logits", logits);
  return judge_harness::Value::doubles(
      judge_learner::softmax_with_temperature(logits, judge_harness::arg_number(args, "temperature")));
}

[[maybe_unused]] const bool registered = judge_harness::register_operation("softmax_with_temperature", softmax_op);
}  // namespace
