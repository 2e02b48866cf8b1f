// Accepted repetition_penalty: rejects invalid arguments with exception
// classes of its own, derived from std::invalid_argument, which the contract
// allows ("that class or one derived from it"). Otherwise the reference's
// way: the distinct ids by sort + unique, each logit scaled once.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace repetition_penalty_errors {
struct bad_penalty : std::invalid_argument {
  explicit bad_penalty(const std::string& what) : std::invalid_argument(what) {}
};
struct token_out_of_range : std::invalid_argument {
  explicit token_out_of_range(const std::string& what) : std::invalid_argument(what) {}
};
}  // namespace repetition_penalty_errors

inline std::vector<double> apply_repetition_penalty(const std::vector<double>& logits,
                                                    const std::vector<int>& generated_ids, double penalty) {
  // Written so that NaN fails too.
  if (!(penalty > 0.0) || !std::isfinite(penalty)) {
    throw repetition_penalty_errors::bad_penalty("repetition_penalty: penalty must be positive and finite");
  }
  const long long vocab = static_cast<long long>(logits.size());
  for (int id : generated_ids) {
    if (id < 0 || id >= vocab) {
      throw repetition_penalty_errors::token_out_of_range("repetition_penalty: token id out of range");
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
