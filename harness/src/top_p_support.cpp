// The top_p problem's trusted oracle (see top_p_support.hpp).
#include <judge_harness/top_p_support.hpp>

#include <judge_harness/runner.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace judge_harness::top_p_support {
namespace {
// Trusted, for `judge validate`: how close any prefix sum of the sorted
// probabilities comes to p. Below ~1e-9, rounding could move the cut, so a
// case there must be exact in binary and say so (exact_boundary: true).
// Prefixes followed only by zero-probability tokens cannot change the
// output and are skipped; p = 1 keeps every token by definition.
Value margin_op(const Value& args) {
  const std::vector<double> logits = arg_doubles(args, "logits");
  const double p = arg_number(args, "p");
  if (logits.empty() || p >= 1.0) return Value::number(std::numeric_limits<double>::infinity());
  long double top = -std::numeric_limits<long double>::infinity();
  for (double z : logits) top = std::max<long double>(top, z);
  std::vector<long double> probs;
  long double total = 0;
  for (double z : logits)
    total += probs.emplace_back(std::isinf(z) ? 0.0L : std::exp(static_cast<long double>(z) - top));
  std::vector<std::size_t> order(logits.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return probs[a] > probs[b]; });
  long double cumulative = 0, closest = std::numeric_limits<long double>::infinity();
  for (std::size_t i = 0; i + 1 < order.size(); ++i) {
    cumulative += probs[order[i]] / total;
    if (probs[order[i + 1]] > 0) closest = std::min(closest, std::fabs(cumulative - static_cast<long double>(p)));
  }
  return Value::number(static_cast<double>(closest));
}

}  // namespace

bool register_oracles() { return register_operation("top_p_margin", margin_op); }

}  // namespace judge_harness::top_p_support
