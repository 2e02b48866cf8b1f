// Adapter for the repetition_penalty problem: apply_repetition_penalty.
#include <judge_harness/runner.hpp>

#include <vector>

#include JUDGE_SOLUTION

namespace {
using Signature = std::vector<double>(const std::vector<double>& logits, const std::vector<int>& generated_ids,
                                      double penalty);
Signature* const learner_function = &apply_repetition_penalty;

judge_harness::Value penalty_op(const judge_harness::Value& args) {
  return judge_harness::Value::doubles(learner_function(judge_harness::arg_doubles(args, "logits"),
                                                        judge_harness::arg_ints(args, "generated_ids"),
                                                        judge_harness::arg_number(args, "penalty")));
}

[[maybe_unused]] const bool registered = judge_harness::register_operation("apply_repetition_penalty", penalty_op);
}  // namespace
