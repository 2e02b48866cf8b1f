// Accepted repetition_penalty: an std::unordered_set remembers which ids
// were already penalized, in one pass over the history.
#pragma once

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <unordered_set>
#include <vector>

inline std::vector<double> apply_repetition_penalty(const std::vector<double>& logits,
                                                    const std::vector<int>& generated_ids, double penalty) {
  if (std::isnan(penalty) || std::isinf(penalty) || penalty <= 0.0) {
    throw std::invalid_argument("penalty must be positive and finite");
  }
  for (int id : generated_ids) {
    if (id < 0 || static_cast<std::size_t>(id) >= logits.size()) {
      throw std::invalid_argument("token id out of range");
    }
  }
  std::vector<double> result = logits;
  std::unordered_set<int> done;
  for (int id : generated_ids) {
    if (!done.insert(id).second) continue;  // already penalized
    if (result[id] > 0.0) {
      result[id] /= penalty;
    } else {
      result[id] *= penalty;
    }
  }
  return result;
}
