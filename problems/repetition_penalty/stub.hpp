// repetition_penalty: make tokens that were already generated less likely
// by scaling their logits, the way CTRL-style repetition penalty does.
// Read the statement with `judge show repetition_penalty`;
// test with `judge run repetition_penalty`.
#pragma once

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <vector>

// Returns a copy of `logits` in which each distinct token id that occurs
// in `generated_ids` is penalized exactly once: a logit z > 0 becomes
// z / penalty, any other logit becomes z * penalty. Other tokens are
// unchanged.
// Throws std::invalid_argument if penalty <= 0 or is not finite, or if an
// id is outside [0, logits.size()).
inline std::vector<double> apply_repetition_penalty(const std::vector<double>& logits,
                                                    const std::vector<int>& generated_ids, double penalty) {
  (void)logits;  // remove these three lines when you start
  (void)generated_ids;
  (void)penalty;
  throw std::logic_error("not implemented yet");
}
