// The beam_search problem's toy language models and its two trusted
// oracles, compiled once into the harness library: the adapter a learner's
// file is compiled with only calls the learner (recompiling all of this on
// every edit took most of a beam_search build).
//
// A case describes a deterministic toy language model. Models:
//   {kind: table, vocab: V, default: [V probs],
//    rows: [{context: [ids], probs: [V probs]}, ...]}
//       the row whose context is the longest suffix of the sequence (prompt
//       followed by the generated tokens) gives the next distribution, else
//       `default`; probability 0 means log-probability -inf.
//   {kind: hashed, vocab: V, seed: S, scale: x, bias: [V numbers] (optional)}
//       logits scale * u + bias, u in [-1, 1) from a hash of the seed and the
//       whole sequence; the log-softmax of those.
// Oracles that never call the learner's code: exhaustive_search (every
// sequence, ranked as the contract's final ranking) and greedy_search
// (argmax at every step). Every op returns a list of hypotheses, each
// {tokens, log_prob, score}, in order.
#pragma once

#include <judge/beam_search.hpp>
#include <judge_harness/value.hpp>

#include <vector>

namespace judge_harness::beam_search_support {

// The contract's signature, exactly.
using LearnerBeamSearch = std::vector<Hypothesis>(const LogProbFn& next_log_probs, const std::vector<int>& prompt,
                                                  int beam_width, int max_new_tokens, int eos_id,
                                                  double length_penalty);

// Builds the case's model, calls `learner` with a LogProbFn over it (the
// model itself stays out of the learner's reach) and encodes the result.
Value call_learner(const Value& args, LearnerBeamSearch* learner);

// The learner's beam_search on the lab's language model (judge lab, and
// judge_harness/lab_model.hpp): args {model: {shape: [8 ints], values:
// [numbers]}, prompt, beam_width, max_new_tokens, eos_id, length_penalty}.
// Returns {hypotheses: [...], model_calls: how often the search asked}.
Value call_learner_on_lab_model(const Value& args, LearnerBeamSearch* learner);

// Hypotheses as every op returns them.
Value hypotheses_value(const std::vector<Hypothesis>& hypotheses);

// Registers exhaustive_search and greedy_search; called by the adapter (a
// static library's self-registering objects would be dropped by the linker).
bool register_oracles();

}  // namespace judge_harness::beam_search_support
