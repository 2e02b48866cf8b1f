// Chi-square tail probabilities and thresholds (Boost.Math), pooling and
// the power rule.
#include "check/stats.hpp"

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <numeric>

namespace judge {
namespace {
// Groups categories so each group's expected count is at least kMinExpectedCount:
// large categories alone, the small ones pooled (the pool joins the smallest
// large category if it is still too small). Returns the group of each category
// (-1 for probability 0).
std::vector<int> group_categories(const std::vector<double>& probs, double n, int* groups) {
  std::vector<int> group(probs.size(), -1);
  int next = 0;
  int pool = -1;
  double pooled = 0;
  int smallest_large = -1;
  double smallest_large_count = INFINITY;
  for (std::size_t i = 0; i < probs.size(); ++i) {
    if (probs[i] <= 0) continue;
    double expected = probs[i] * n;
    if (expected >= kMinExpectedCount) {
      group[i] = next;
      if (expected < smallest_large_count) smallest_large_count = expected, smallest_large = next;
      ++next;
    } else {
      if (pool < 0) pool = next++;
      group[i] = pool;
      pooled += expected;
    }
  }
  if (pool >= 0 && pooled < kMinExpectedCount && smallest_large >= 0) {
    for (int& g : group) {
      if (g == pool)
        g = smallest_large;
      else if (g > pool)
        --g;  // close the gap the pool leaves
    }
    --next;
  }
  *groups = next;
  return group;
}
}  // namespace

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double chi_square_upper_tail(double x, double df) {
  if (x <= 0) return 1.0;
  return boost::math::cdf(boost::math::complement(boost::math::chi_squared_distribution<double>(df), x));
}

double chi_square_threshold(double tail, double df) {
  return boost::math::quantile(boost::math::complement(boost::math::chi_squared_distribution<double>(df), tail));
}

FitResult chi_square_fit(const std::vector<double>& probs, const std::vector<std::int64_t>& counts,
                         double false_reject_rate) {
  FitResult fit;
  double n = static_cast<double>(std::accumulate(counts.begin(), counts.end(), std::int64_t{0}));
  int groups = 0;
  std::vector<int> group = group_categories(probs, n, &groups);
  std::vector<double> expected(groups, 0), observed(groups, 0);
  for (std::size_t i = 0; i < probs.size(); ++i) {
    if (group[i] < 0) continue;
    expected[group[i]] += probs[i] * n;
    observed[group[i]] += static_cast<double>(counts[i]);
  }
  for (int g = 0; g < groups; ++g)
    if (expected[g] > 0) fit.statistic += (observed[g] - expected[g]) * (observed[g] - expected[g]) / expected[g];
  fit.degrees_of_freedom = std::max(groups - 1, 1);
  fit.threshold = chi_square_threshold(false_reject_rate, fit.degrees_of_freedom);
  fit.rejected = groups > 1 && fit.statistic > fit.threshold;
  double worst = -1;
  for (std::size_t i = 0; i < probs.size(); ++i) {
    if (probs[i] <= 0) continue;
    double e = probs[i] * n, o = static_cast<double>(counts[i]);
    double residual = std::fabs(o - e) / std::sqrt(e);
    if (residual > worst) {
      worst = residual;
      fit.worst_category = static_cast<int>(i);
      fit.worst_expected = probs[i];
      fit.worst_observed = n > 0 ? o / n : 0;
    }
  }
  return fit;
}

HomogeneityResult homogeneity_test(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b) {
  HomogeneityResult result;
  double total_a = 0, total_b = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
    total_a += static_cast<double>(a[i]), total_b += static_cast<double>(b[i]);
  if (total_a == 0 || total_b == 0) return result;
  int categories = 0;
  auto add = [&](double in_a, double in_b) {
    const double row = in_a + in_b;
    if (row == 0) return;
    ++categories;
    double expected_a = row * total_a / (total_a + total_b), expected_b = row * total_b / (total_a + total_b);
    result.statistic +=
        (in_a - expected_a) * (in_a - expected_a) / expected_a + (in_b - expected_b) * (in_b - expected_b) / expected_b;
  };
  double rare_a = 0, rare_b = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] + b[i] < kHomogeneityPoolBelow) {
      rare_a += static_cast<double>(a[i]), rare_b += static_cast<double>(b[i]);
      continue;
    }
    add(static_cast<double>(a[i]), static_cast<double>(b[i]));
  }
  add(rare_a, rare_b);
  if (categories < 2) return HomogeneityResult{};
  result.degrees_of_freedom = categories - 1;
  result.p_value = chi_square_upper_tail(result.statistic, result.degrees_of_freedom);
  return result;
}

bool same_distribution(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b, double level) {
  if (a.size() != b.size()) return false;
  double total_a = 0, total_b = 0;
  for (std::size_t i = 0; i < a.size(); ++i) total_a += static_cast<double>(a[i]), total_b += static_cast<double>(b[i]);
  if (total_a == 0 || total_b == 0) return false;
  return homogeneity_test(a, b).p_value > level;
}

namespace {
// The draws in which an event of probability `p` per draw happens at least
// once, except with probability `miss_rate`.
std::int64_t draws_to_see(double p, double miss_rate) {
  return static_cast<std::int64_t>(std::ceil(std::log(miss_rate) / std::log1p(-p)));
}

// The z with P(Z > z) = tail for a standard normal Z.
double normal_upper_quantile(double tail) {
  return boost::math::quantile(boost::math::complement(boost::math::normal_distribution<double>(), tail));
}

// Kullback-Leibler divergence of Bernoulli(p) from Bernoulli(f), with
// 0 log 0 = 0: infinite where f puts mass that p does not.
double bernoulli_divergence(double f, double p) {
  auto term = [](double a, double b) {
    if (a <= 0) return 0.0;
    if (b <= 0) return static_cast<double>(INFINITY);
    return a * std::log(a / b);
  };
  return term(f, p) + term(1 - f, 1 - p);
}
}  // namespace

std::int64_t draws_for_power(const std::vector<double>& probs, double deviation, double false_reject_rate,
                             double miss_rate, std::int64_t minimum) {
  // A shift of `deviation` in a group of probability P, however the other
  // groups compensate, gives noncentrality at least n deviation^2 / (P (1 - P))
  // (Cauchy-Schwarz; the least when the rest moves in proportion). The
  // hardest group to catch is the one whose P (1 - P) is largest: at most
  // 1/4, for P = 1/2.
  const double z = normal_upper_quantile(miss_rate);
  // One outcome: every draw must be it, and the support check rejects the
  // first draw of any other token (a correct sampler never draws one, so
  // this adds no false rejects). A sampler that puts `deviation` of its
  // mass elsewhere shows it within n draws with probability
  // 1 - (1 - deviation)^n, which is 1 - miss_rate from this n on.
  if (std::count_if(probs.begin(), probs.end(), [](double p) { return p > 0; }) <= 1)
    return draws_to_see(deviation, miss_rate);
  for (std::int64_t n = minimum;; n = n + n / 8) {
    int groups = 0;
    std::vector<int> group = group_categories(probs, static_cast<double>(n), &groups);
    std::vector<double> group_probability(static_cast<std::size_t>(groups), 0.0);
    for (std::size_t i = 0; i < probs.size(); ++i)
      if (group[i] >= 0) group_probability[static_cast<std::size_t>(group[i])] += probs[i];
    double widest = 0;
    for (double p : group_probability) widest = std::max(widest, std::min(0.25, p * (1 - p)));
    if (groups < 2 || widest <= 0) return n;  // one outcome: only the support check can fail
    double df = std::max(groups - 1, 1);
    double threshold = chi_square_threshold(false_reject_rate, df);
    double lambda = static_cast<double>(n) * deviation * deviation / widest;
    double power_z = (df + lambda - threshold) / std::sqrt(2.0 * (df + 2.0 * lambda));
    if (power_z >= z || n > 5000000) return n;
  }
}

std::int64_t draws_for_sequential_test(const std::vector<double>& probs, double false_reject_rate,
                                       std::int64_t first_look) {
  std::int64_t single = draws_for_power(probs, kDetectableDeviation, false_reject_rate, kMissRate);
  if (single <= first_look) return single;
  return draws_for_power(probs, kDetectableDeviation, final_look_rate(false_reject_rate),
                         final_look_miss_rate(kMissRate));
}

bool fits_within(const std::vector<double>& probs, const std::vector<std::int64_t>& counts, double deviation,
                 double miss_rate) {
  double n = static_cast<double>(std::accumulate(counts.begin(), counts.end(), std::int64_t{0}));
  if (n <= 0 || counts.size() < probs.size()) return false;
  // Rejecting probability p at `miss_rate` takes n KL(f || p) >= this.
  const double needed = std::log(1 / miss_rate);
  for (std::size_t i = 0; i < probs.size(); ++i) {
    double f = static_cast<double>(counts[i]) / n;
    double above = probs[i] + deviation, below = probs[i] - deviation;
    // P(F <= f) under any p >= above is at most its value at `above`.
    if (above <= 1 && (f >= above || n * bernoulli_divergence(f, above) < needed)) return false;
    if (below >= 0 && (f <= below || n * bernoulli_divergence(f, below) < needed)) return false;
  }
  // Draws outside `probs` (a last category of strays) put their share
  // against the expected 0 as well.
  for (std::size_t i = probs.size(); i < counts.size(); ++i) {
    double f = static_cast<double>(counts[i]) / n;
    if (f >= deviation || n * bernoulli_divergence(f, deviation) < needed) return false;
  }
  return true;
}

std::int64_t draws_for_coverage(const std::vector<double>& probs, double least, double false_reject_rate) {
  auto chance_of_a_miss = [&](std::int64_t n) {
    double sum = 0;
    for (double p : probs)
      if (p >= least) sum += std::exp(static_cast<double>(n) * std::log1p(-std::min(p, 1.0)));
    return sum;
  };
  std::int64_t n = draws_to_see(least, kMissRate);
  while (chance_of_a_miss(n) > false_reject_rate) n += n / 32 + 1;
  return n;
}

std::int64_t repeats_to_see_an_ignored_seed(const std::vector<double>& probs, double miss_rate) {
  double agree = 0;
  for (double p : probs) agree += p * p;
  if (agree >= 1 - 1e-12) return -1;
  return static_cast<std::int64_t>(std::ceil(std::log(miss_rate) / std::log(agree)));
}

}  // namespace judge
