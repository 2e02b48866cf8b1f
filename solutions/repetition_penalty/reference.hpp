// Reference solution for repetition_penalty: validate, reduce the history to
// its distinct ids (sort + unique), and scale each of those logits once.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <vector>

inline std::vector<double> apply_repetition_penalty(const std::vector<double>& logits,
                                                    const std::vector<int>& generated_ids, double penalty) {
  // Written so that NaN fails too.
  if (!(penalty > 0.0) || !std::isfinite(penalty)) {
    throw std::invalid_argument("repetition_penalty: penalty must be positive and finite");
  }
  const long long vocab = static_cast<long long>(logits.size());
  for (int id : generated_ids) {
    if (id < 0 || id >= vocab) {
      throw std::invalid_argument("repetition_penalty: token id out of range");
    }
  }

  // A token seen ten times is penalized once, like a token seen once.
  std::vector<int> distinct(generated_ids);
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());

  std::vector<double> result(logits);
  for (int id : distinct) {
    double& z = result[static_cast<std::size_t>(id)];
    // Dividing a negative logit would move it toward 0, i.e. make the token
    // MORE likely; multiplying pushes it further down. -inf stays -inf and
    // 0 stays 0.
    z = z > 0.0 ? z / penalty : z * penalty;
  }
  return result;
}
