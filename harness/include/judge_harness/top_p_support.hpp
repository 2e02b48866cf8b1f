// The top_p problem's trusted oracle, compiled once into the harness
// library so that the adapter a learner's file is compiled with only calls
// the learner: top_p_margin, for `judge validate`, says how close any prefix
// sum of a case's sorted probabilities comes to its p: the absolute
// distance min |S_k - p| over the sums followed by a token of positive
// probability, or +infinity when there is no boundary (no logits, p >= 1,
// one possible token). docs/problem-format.md, "Boundary margins".
#pragma once

namespace judge_harness::top_p_support {

// Registers top_p_margin; called by the adapter (a static library's
// self-registering objects would be dropped by the linker).
bool register_oracles();

}  // namespace judge_harness::top_p_support
