// Known wrong (repetition_penalty): returns the logits unchanged when
// nothing has been generated yet, before the penalty is validated, so an
// invalid penalty (0, NaN, inf) is accepted whenever the history is empty.
#pragma once

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <unordered_set>
#include <vector>

inline std::vector<double> apply_repetition_penalty(const std::vector<double>& logits,
                                                    const std::vector<int>& generated_ids, double penalty) {
  if (generated_ids.empty()) return logits;  // bug: before the penalty check
  if (!(penalty > 0.0) || !std::isfinite(penalty)) {
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
    if (!done.insert(id).second) continue;
    double& z = result[static_cast<std::size_t>(id)];
    z = z > 0.0 ? z / penalty : z * penalty;
  }
  return result;
}
