// Speculative decoding: one verify round.
//
// Walk the K drafts in order. Accept draft_tokens[i] = x with probability
// min(1, p_i(x) / q_i(x)) (p_i = row i of target_probs, q_i = row i of
// draft_probs). At the first rejection, append one token drawn from
// normalize(max(0, p_i - q_i)) and stop. If all K are accepted, append one
// bonus token drawn from p_K (row K of target_probs). Return the accepted
// drafts followed by that token: 1 to K + 1 tokens.
//
// - Seed a generator with `seed` inside the call (any good generator, for
//   example std::mt19937_64): the same arguments and seed must give the
//   same tokens.
// - Throw std::invalid_argument if target_probs is not (K + 1) x V, if
//   draft_probs is not K x V for the same V, or if a draft token is outside
//   [0, V). With K = 0, draft_probs is 0 x V. Check everything before the
//   walk: an invalid call must throw whatever the random draws would do.
//
// `judge show speculative_decoding` prints the full statement.
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

inline std::vector<int> speculative_accept(const std::vector<int>& draft_tokens, const Eigen::MatrixXd& draft_probs,
                                           const Eigen::MatrixXd& target_probs, std::uint64_t seed) {
  (void)draft_tokens;
  (void)draft_probs;
  (void)target_probs;
  (void)seed;
  throw std::logic_error("not implemented yet");
}
