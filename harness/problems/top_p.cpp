// Adapter for the top_p problem: top_p_probs and top_p_sample. The trusted
// top_p_margin is in the harness library (judge_harness/top_p_support.hpp).
#include <judge_harness/input_watch.hpp>
#include <judge_harness/runner.hpp>
#include <judge_harness/top_p_support.hpp>

#include <cstdint>
#include <vector>

#include JUDGE_LEARNER_BINDINGS  // top_p.learner.hpp: the learner's functions, compiled apart

namespace {
using judge_harness::Value;

Value probs_op(const Value& args) {
  const std::vector<double> logits = judge_harness::arg_doubles(args, "logits");
  const judge_harness::InputWatch watch("logits", logits);
  return Value::doubles(judge_learner::top_p_probs(logits, judge_harness::arg_number(args, "p")));
}

// One draw per seed, so a distribution test costs one request, not thousands.
// Every call gets the same logits object, watched over all of them.
Value sample_op(const Value& args) {
  const std::vector<double> logits = judge_harness::arg_doubles(args, "logits");
  const judge_harness::InputWatch watch("logits", logits);
  const double p = judge_harness::arg_number(args, "p");
  std::vector<int> tokens;
  for (std::uint64_t seed : judge_harness::arg_seeds(args, "seeds"))
    tokens.push_back(judge_learner::top_p_sample(logits, p, seed));
  return Value::ints(tokens);
}

[[maybe_unused]] const bool registered = judge_harness::register_operation("top_p_probs", probs_op) &&
                                         judge_harness::register_operation("top_p_sample", sample_op) &&
                                         judge_harness::top_p_support::register_oracles();
}  // namespace
