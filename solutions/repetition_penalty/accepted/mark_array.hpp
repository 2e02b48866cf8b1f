// Accepted repetition_penalty: marks the generated ids in a
// std::vector<bool> the size of the vocabulary, then penalizes every marked
// token in one sweep: O(vocabulary + history).
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
  std::vector<bool> generated(logits.size(), false);
  for (int id : generated_ids) {
    if (id < 0 || static_cast<std::size_t>(id) >= logits.size()) {
      throw std::invalid_argument("token id out of range");
    }
    generated[id] = true;
  }
  std::vector<double> result = logits;
  for (std::size_t i = 0; i < result.size(); ++i) {
    if (!generated[i]) continue;
    result[i] = result[i] > 0.0 ? result[i] / penalty : result[i] * penalty;
  }
  return result;
}
