// Known wrong (repetition_penalty): rejects every penalty below machine
// epsilon (2.2e-16) as if it were 0. Every finite penalty > 0 is valid, the
// smallest positive double included: z * penalty and z / penalty need no
// special care there (a tiny product rounds to 0, a huge quotient to inf,
// as the contract's arithmetic says).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <vector>

inline std::vector<double> apply_repetition_penalty(const std::vector<double>& logits,
                                                    const std::vector<int>& generated_ids, double penalty) {
  // Written so that NaN fails too.
  // Bug: a tolerance around 0 rejects valid tiny penalties.
  if (!(penalty > 2.220446049250313e-16) || !std::isfinite(penalty)) {
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
