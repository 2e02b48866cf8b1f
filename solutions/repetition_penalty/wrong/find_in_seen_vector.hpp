// Known wrong (repetition_penalty): correct results, too slow. Repeats are
// skipped by looking each id up with std::find in a growing vector of the
// ids already penalized: O(H^2) for a history of H ids, about 1e9
// comparisons for H = 50000. Mark seen ids in a std::vector<bool> the size
// of the vocabulary (O(V + H)), or use an unordered_set, or sort + unique.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <vector>

inline std::vector<double> apply_repetition_penalty(const std::vector<double>& logits,
                                                    const std::vector<int>& generated_ids, double penalty) {
  if (!(penalty > 0.0) || !std::isfinite(penalty)) {
    throw std::invalid_argument("penalty must be positive and finite");
  }
  for (int id : generated_ids) {
    if (id < 0 || static_cast<std::size_t>(id) >= logits.size()) {
      throw std::invalid_argument("token id out of range");
    }
  }
  std::vector<double> result = logits;
  std::vector<int> seen;
  for (int id : generated_ids) {
    if (std::find(seen.begin(), seen.end(), id) != seen.end()) continue;
    seen.push_back(id);
    result[id] = result[id] > 0.0 ? result[id] / penalty : result[id] * penalty;
  }
  return result;
}
