// Known wrong (repetition_penalty): returns the logits unchanged as soon as
// penalty == 1 ("nothing to do"), before the ids are checked, so an id
// outside the vocabulary goes unnoticed whenever the penalty is 1.
#pragma once

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <vector>

inline std::vector<double> apply_repetition_penalty(const std::vector<double>& logits,
                                                    const std::vector<int>& generated_ids, double penalty) {
  if (!(penalty > 0.0) || !std::isfinite(penalty)) {
    throw std::invalid_argument("penalty must be positive and finite");
  }
  if (penalty == 1.0) return logits;  // bug: skips the id check below
  std::vector<bool> seen(logits.size(), false);
  for (int id : generated_ids) {
    if (id < 0 || static_cast<std::size_t>(id) >= logits.size()) {
      throw std::invalid_argument("token id out of range");
    }
    seen[id] = true;
  }
  std::vector<double> result = logits;
  for (std::size_t i = 0; i < result.size(); ++i) {
    if (seen[i]) result[i] = result[i] > 0.0 ? result[i] / penalty : result[i] * penalty;
  }
  return result;
}
