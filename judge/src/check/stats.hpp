// Goodness-of-fit statistics for judging samplers by distribution.
//
// Pearson's chi-square test over categories, with categories of small
// expected count pooled so the chi-square approximation holds in the far
// tail where the threshold sits, and a sample-size rule that guarantees the
// test's power against a stated deviation.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace judge {

// The false-reject rate per case for a correct sampler, and the smallest
// deviation of any category's probability the sample size is chosen to catch.
inline constexpr double kFalseRejectRate = 1e-7;
inline constexpr double kDetectableDeviation = 0.02;
// A sampler's draws are tested after each batch, not only at the end, so
// that a wrong sampler stops early (a sequential test). The false-reject
// rate is spent in parts, and by a union bound the total stays at the
// stated rate: each of at most kMaxEarlyLooks early looks at
// early_look_rate(rate), the final look, sized for power, at the rest.
inline constexpr int kMaxEarlyLooks = 8;
inline constexpr double kEarlyLooksShare = 0.05;
inline constexpr double early_look_rate(double rate) { return rate * kEarlyLooksShare / kMaxEarlyLooks; }
inline constexpr double final_look_rate(double rate) { return rate * (1 - kEarlyLooksShare); }
// Categories expected fewer times than this are pooled together.
inline constexpr double kMinExpectedCount = 50;

// The median of `values` (the mean of the middle two for an even count); 0
// for none.
double median(std::vector<double> values);

// P(X > x) for X ~ chi-square with `df` degrees of freedom.
double chi_square_upper_tail(double x, double df);
// The x with P(X > x) = tail.
double chi_square_threshold(double tail, double df);

struct FitResult {
  bool rejected = false;
  double statistic = 0;
  double threshold = 0;
  int degrees_of_freedom = 0;
  // The category with the largest Pearson residual |O - E| / sqrt(E).
  int worst_category = -1;
  double worst_expected = 0;  // frequency, in [0, 1]
  double worst_observed = 0;
};

// Tests `counts` (over categories) against `probs` (summing to 1). A count in
// a category of probability 0 is not the test's business: check it first.
FitResult chi_square_fit(const std::vector<double>& probs, const std::vector<std::int64_t>& counts,
                         double false_reject_rate = kFalseRejectRate);

// Pearson's chi-square test of homogeneity of two histograms over the same
// categories: whether they could come from one distribution. Categories
// empty in both do not count; with fewer than two left, the statistic is 0
// and the p-value 1.
struct HomogeneityResult {
  double statistic = 0;
  int degrees_of_freedom = 0;
  double p_value = 1;
};
HomogeneityResult homogeneity_test(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b);

// True when two histograms over the same categories could come from one
// distribution (homogeneity_test at `level`). Used to match a learner's
// sampler against a known-wrong one, so the level is lenient. False for
// histograms of different sizes or an empty one.
bool same_distribution(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b, double level = 1e-4);

// The number of draws after which a chi-square test over `probs` at
// `false_reject_rate` rejects, with probability at least 0.999 (normal
// approximation of the noncentral chi-square), any distribution in which
// some category's probability is off by `deviation`. At least `minimum`,
// except for a distribution of one outcome, where a single draw of another
// token fails the support check: then just enough draws (342 for 0.02) to
// see one with probability 0.999 from a sampler off by `deviation`.
std::int64_t draws_for_power(const std::vector<double>& probs, double deviation = kDetectableDeviation,
                             double false_reject_rate = kFalseRejectRate, std::int64_t minimum = 20000);

// The number of draws for a two-sided support test over `probs`: enough
// that a correct sampler draws every category of probability at least
// `least` at least once, except with probability `false_reject_rate` (a
// union bound over them), and that a sampler putting `least` of its mass
// on categories of probability 0 draws one with probability 0.999.
std::int64_t draws_for_coverage(const std::vector<double>& probs, double least = kDetectableDeviation,
                                double false_reject_rate = kFalseRejectRate);

}  // namespace judge
