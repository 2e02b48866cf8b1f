// Known wrong (repetition_penalty): applies the penalty to every logit,
// not only to the tokens that were generated, so nothing is singled out.
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
  for (double& z : result) {  // bug: should only touch generated ids
    z = z > 0.0 ? z / penalty : z * penalty;
  }
  return result;
}
