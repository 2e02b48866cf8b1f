// Known wrong (repetition_penalty): penalizes once per occurrence, so a
// token generated ten times is divided by penalty^10 and effectively
// banned. The penalty is meant to apply once per distinct token.
#pragma once

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <vector>

inline std::vector<double> apply_repetition_penalty(const std::vector<double>& logits,
                                                    const std::vector<int>& generated_ids, double penalty) {
  if (!std::isfinite(penalty) || penalty <= 0.0) {
    throw std::invalid_argument("penalty must be positive and finite");
  }
  for (int id : generated_ids) {
    if (id < 0 || static_cast<std::size_t>(id) >= logits.size()) {
      throw std::invalid_argument("token id out of range");
    }
  }
  std::vector<double> result = logits;
  for (int id : generated_ids) {  // bug: repeats are penalized again
    result[id] = result[id] > 0.0 ? result[id] / penalty : result[id] * penalty;
  }
  return result;
}
