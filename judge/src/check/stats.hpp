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
// A correct sampler's test stops early too, once its draws show that no
// category's probability is off by the detectable deviation (fits_within).
// The chance of missing a sampler that is off by that much (one minus the
// power) is spent the same way: each of at most kMaxAcceptLooks such looks
// at accept_look_miss_rate(miss), the final look, sized for power, at the
// rest.
inline constexpr double kMissRate = 1e-3;
inline constexpr int kMaxAcceptLooks = 16;
inline constexpr double kAcceptLooksShare = 0.5;
inline constexpr double accept_look_miss_rate(double miss) { return miss * kAcceptLooksShare / kMaxAcceptLooks; }
inline constexpr double final_look_miss_rate(double miss) { return miss * (1 - kAcceptLooksShare); }
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
// empty in both do not count, and those holding fewer than
// kHomogeneityPoolBelow draws in both together are pooled into one (the
// chi-square approximation needs a few draws a category: two samples of a
// sampler spread over 131,072 tokens are mostly single draws, and unpooled
// any two such histograms, however different, pass). With fewer than two
// categories left, the statistic is 0 and the p-value 1.
constexpr std::int64_t kHomogeneityPoolBelow = 5;
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
// `false_reject_rate` rejects, with probability at least 1 - `miss_rate`
// (normal approximation of the noncentral chi-square), any distribution in
// which some category's probability is off by `deviation`. At least
// `minimum`, except for a distribution of one outcome, where a single draw
// of another token fails the support check: then just enough draws (342 for
// 0.02 and 0.999) to see one with probability 1 - `miss_rate` from a
// sampler off by `deviation`.
std::int64_t draws_for_power(const std::vector<double>& probs, double deviation = kDetectableDeviation,
                             double false_reject_rate = kFalseRejectRate, double miss_rate = kMissRate,
                             std::int64_t minimum = 20000);

// The draws of a sequential test over `probs` at `false_reject_rate`, whose
// first look comes after `first_look` draws: sized for the final look's
// share of both rates; or, when the draws of a single look at the whole
// rates fit in the first look (so there is no other look), those.
std::int64_t draws_for_sequential_test(const std::vector<double>& probs, double false_reject_rate,
                                       std::int64_t first_look);

// True when `counts` (over categories) show that no category's probability
// differs from `probs` by `deviation` or more: for every category, the
// probabilities `deviation` above and below the expected one are each
// rejected by a one-sided Chernoff bound, P(F <= f) <= exp(-n KL(f || p)),
// at `miss_rate`. Whatever the sampler, if some category is off by at least
// `deviation`, this returns true with probability at most `miss_rate`: the
// early acceptance of a sequential test.
bool fits_within(const std::vector<double>& probs, const std::vector<std::int64_t>& counts,
                 double deviation = kDetectableDeviation, double miss_rate = kMissRate);

// The number of draws for a two-sided support test over `probs`: enough
// that a correct sampler draws every category of probability at least
// `least` at least once, except with probability `false_reject_rate` (a
// union bound over them), and that a sampler putting `least` of its mass
// on categories of probability 0 draws one with probability 0.999.
std::int64_t draws_for_coverage(const std::vector<double>& probs, double least = kDetectableDeviation,
                                double false_reject_rate = kFalseRejectRate);

// The repeated seeds that catch, except with probability `miss_rate`, a
// sampler that ignores its seed (or keeps state between calls) while
// drawing from `probs`: a repeat gives the same token again with
// probability sum p^2, the chance that two independent draws agree. None
// suffice when one category holds all the probability (returns -1).
std::int64_t repeats_to_see_an_ignored_seed(const std::vector<double>& probs, double miss_rate = kMissRate);

}  // namespace judge
