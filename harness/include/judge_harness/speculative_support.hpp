// The speculative_decoding problem's `speculate_many` op, compiled once
// into the harness library (with its Eigen code, it was half of every
// build of a learner's file): for each seed, decoding with a toy draft
// model and a toy target model until at least two tokens are out. The
// harness draws the drafts (trusted); the learner's speculative_accept
// verifies them. The toy models are bigram tables:
//   {k: K, draft: {start: [V], next: [[V] x V]}, target: {start: [V], next: [[V] x V]}}
// `start` is the distribution of the first token, next[t] the distribution
// after token t. Each seed's result is a list of rounds, each [drafts, emitted].
#pragma once

#include <judge_harness/value.hpp>

#include <Eigen/Dense>
#include <cstdint>
#include <optional>
#include <vector>

namespace judge_harness::speculative_support {

// The contract's signature, exactly.
using LearnerAccept = std::vector<int>(const std::vector<int>& draft_tokens, const Eigen::MatrixXd& draft_probs,
                                       const Eigen::MatrixXd& target_probs, std::uint64_t seed);

Value speculate_many(const Value& args, LearnerAccept* learner);

// One call of the learner's speculative_accept, with its const inputs
// watched (judge_harness/input_watch.hpp): the adapter's ops and
// speculate_many call through it.
std::vector<int> watched_call(LearnerAccept* learner, const std::vector<int>& draft_tokens,
                              const Eigen::MatrixXd& draft_probs, const Eigen::MatrixXd& target_probs,
                              std::uint64_t seed);

// The tokens one round emits whatever the draws, or nullopt when a draw
// can change them or the round is not a valid one (rows of the vocabulary's
// width that sum to 1, K draft rows and K + 1 target rows, every draft
// token possible under its draft row). A draft with p >= q is accepted for
// certain; one with p = 0 is rejected for certain, and the residual must
// then hold one token; with every draft accepted, the bonus row must. The
// judge shrinks a failed round to smaller rounds with such an answer
// (problem.yaml `fixed_answer:`, the adapter's fixed-answer ops).
std::optional<std::vector<int>> fixed_answer(const std::vector<int>& draft_tokens, const Eigen::MatrixXd& draft_probs,
                                             const Eigen::MatrixXd& target_probs);

}  // namespace judge_harness::speculative_support
