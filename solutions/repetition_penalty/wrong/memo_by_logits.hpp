// Wrong: remembers the last answer under its logits and penalty, but not
// the history: the same logits with other generated ids get the first
// history's penalties. A call's answer must depend on its arguments alone.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <vector>

inline std::vector<double> penalize_once(const std::vector<double>& logits,
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

inline std::vector<double> apply_repetition_penalty(const std::vector<double>& logits,
                                                    const std::vector<int>& generated_ids, double penalty) {
  static std::vector<double> last_logits, last_result;
  static double last_penalty = 0.0;
  if (!last_logits.empty() && logits == last_logits && penalty == last_penalty) return last_result;
  std::vector<double> result = penalize_once(logits, generated_ids, penalty);
  last_logits = logits;
  last_penalty = penalty;
  last_result = result;
  return result;
}
