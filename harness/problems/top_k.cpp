// Adapter for the top_k problem: top_k_probs and top_k_sample.
#include <judge_harness/input_watch.hpp>
#include <judge_harness/runner.hpp>

#include <cstdint>
#include <vector>

#include JUDGE_LEARNER_BINDINGS  // top_k.learner.hpp: the learner's functions, compiled apart

namespace {
using judge_harness::Value;

Value probs_op(const Value& args) {
  const std::vector<double> logits = judge_harness::arg_doubles(args, "logits");
  const judge_harness::InputWatch watch("logits", logits);
  return Value::doubles(judge_learner::top_k_probs(logits, judge_harness::arg_int(args, "k")));
}

// One draw per seed, so a distribution test costs one request, not thousands.
// Every call gets the same logits object, watched over all of them.
Value sample_op(const Value& args) {
  const std::vector<double> logits = judge_harness::arg_doubles(args, "logits");
  const judge_harness::InputWatch watch("logits", logits);
  const int k = judge_harness::arg_int(args, "k");
  std::vector<int> tokens;
  for (std::uint64_t seed : judge_harness::arg_seeds(args, "seeds"))
    tokens.push_back(judge_learner::top_k_sample(logits, k, seed));
  return Value::ints(tokens);
}

[[maybe_unused]] const bool registered = judge_harness::register_operation("top_k_probs", probs_op) &&
                                         judge_harness::register_operation("top_k_sample", sample_op);
}  // namespace
