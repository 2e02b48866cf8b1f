// Known wrong (repetition_penalty): never checks that the ids are inside
// the vocabulary. Indexing with .at() then throws std::out_of_range, which
// is not the std::invalid_argument the contract asks for (and plain []
// would read and write outside the vector).
#pragma once

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <unordered_set>
#include <vector>

inline std::vector<double> apply_repetition_penalty(const std::vector<double>& logits,
                                                    const std::vector<int>& generated_ids, double penalty) {
  if (!std::isfinite(penalty) || penalty <= 0.0) {
    throw std::invalid_argument("penalty must be positive and finite");
  }
  std::vector<double> result = logits;
  std::unordered_set<int> done;
  for (int id : generated_ids) {
    if (!done.insert(id).second) continue;
    double& z = result.at(static_cast<std::size_t>(id));  // bug: no check
    z = z > 0.0 ? z / penalty : z * penalty;
  }
  return result;
}
