// The chi-square machinery behind distribution checks: tail probabilities
// against published values, the threshold as their inverse, pooling, and
// the sample-size rule, down to a seeded simulation of the promise "a correct
// sampler passes, one off by 0.02 fails".
#include "check/stats.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "package/typed_values.hpp"

namespace judge {
namespace {

struct TailCase {
  const char* source;
  double x;
  double df;
  double tail;
  double tolerance;  // absolute
};

TEST(ChiSquareUpperTail, MatchesPublishedTables) {
  const TailCase cases[] = {
      {"table: df 1 at the 5% point", 3.841, 1, 0.05, 1e-4},
      {"table: df 10 at the 5% point", 18.307, 10, 0.05, 1e-5},
      {"table: df 2 at the 0.1% point", 13.8155, 2, 0.001, 1e-7},
      {"table: df 5 at the 1% point", 15.086, 5, 0.01, 1e-5},
      {"table: df 30 at the 50% point", 29.336, 30, 0.5, 1e-4},
      {"table: df 100 at the 5% point", 124.342, 100, 0.05, 1e-5},
      {"x = 0 is certain", 0.0, 3, 1.0, 0},
      {"negative x is certain", -1.0, 3, 1.0, 0},
  };
  for (const TailCase& c : cases) EXPECT_NEAR(chi_square_upper_tail(c.x, c.df), c.tail, c.tolerance) << c.source;
}

TEST(ChiSquareUpperTail, MatchesClosedFormsIntoTheFarTail) {
  // df 1: erfc(sqrt(x/2)); df 2: exp(-x/2); df 4: exp(-x/2) (1 + x/2).
  for (double x : {0.01, 0.5, 1.0, 3.0, 10.0, 28.37, 50.0, 100.0}) {
    EXPECT_NEAR(chi_square_upper_tail(x, 1) / std::erfc(std::sqrt(x / 2)), 1.0, 1e-9) << "df 1, x " << x;
    EXPECT_NEAR(chi_square_upper_tail(x, 2) / std::exp(-x / 2), 1.0, 1e-9) << "df 2, x " << x;
    EXPECT_NEAR(chi_square_upper_tail(x, 4) / (std::exp(-x / 2) * (1 + x / 2)), 1.0, 1e-9) << "df 4, x " << x;
  }
}

TEST(ChiSquareThreshold, InvertsTheUpperTail) {
  EXPECT_NEAR(chi_square_threshold(0.05, 1), 3.841458820694124, 1e-9);
  EXPECT_NEAR(chi_square_threshold(1e-7, 2), 2 * std::log(1e7), 1e-9) << "df 2: -2 ln(tail)";
  for (double df : {1.0, 2.0, 3.0, 7.0, 20.0, 99.0, 500.0})
    for (double tail : {0.5, 0.05, 1e-3, 1e-7}) {
      double x = chi_square_threshold(tail, df);
      EXPECT_NEAR(chi_square_upper_tail(x, df) / tail, 1.0, 1e-9) << "df " << df << ", tail " << tail;
    }
}

TEST(ChiSquareFit, AcceptsExactCounts) {
  FitResult fit = chi_square_fit({0.5, 0.3, 0.2}, {5000, 3000, 2000});
  EXPECT_FALSE(fit.rejected);
  EXPECT_EQ(fit.statistic, 0.0);
  EXPECT_EQ(fit.degrees_of_freedom, 2);
  EXPECT_NEAR(fit.threshold, 2 * std::log(1e7), 1e-9);
}

TEST(ChiSquareFit, RejectsASkewedSampleAndNamesTheWorstCategory) {
  // Residuals |O - E| / sqrt(E): 14.1, 9.1, 11.2: category 0 is the worst.
  FitResult fit = chi_square_fit({0.5, 0.3, 0.2}, {6000, 2500, 1500});
  EXPECT_TRUE(fit.rejected);
  EXPECT_GT(fit.statistic, fit.threshold);
  EXPECT_EQ(fit.worst_category, 0);
  EXPECT_DOUBLE_EQ(fit.worst_expected, 0.5);
  EXPECT_DOUBLE_EQ(fit.worst_observed, 0.6);

  // Residuals 0, 11.0, 13.4: category 2, though categories 1 and 2 are off by as much.
  fit = chi_square_fit({0.5, 0.3, 0.2}, {5000, 3600, 1400});
  EXPECT_TRUE(fit.rejected);
  EXPECT_EQ(fit.worst_category, 2);
  EXPECT_DOUBLE_EQ(fit.worst_observed, 0.14);
}

TEST(ChiSquareFit, PoolsCategoriesOfSmallExpectedCount) {
  // Expected 6000, 3900, 40, 30, 30: the last three pool to 100, three groups.
  EXPECT_EQ(chi_square_fit({0.6, 0.39, 0.004, 0.003, 0.003}, {6000, 3900, 40, 30, 30}).degrees_of_freedom, 2);
  // Expected 6000, 3960, 20, 20: a pool of 40 is still too small and joins 3960.
  FitResult fit = chi_square_fit({0.6, 0.396, 0.002, 0.002}, {6000, 3960, 20, 20});
  EXPECT_EQ(fit.degrees_of_freedom, 1);
  EXPECT_FALSE(fit.rejected);
  // A rare category's excess is judged in its pool: 40 + 30 + 30 expected, 130 seen is not enough to reject...
  EXPECT_FALSE(chi_square_fit({0.6, 0.39, 0.004, 0.003, 0.003}, {5970, 3900, 70, 30, 30}).rejected);
  // ...but 400 is.
  EXPECT_TRUE(chi_square_fit({0.6, 0.39, 0.004, 0.003, 0.003}, {5640, 3900, 370, 30, 30}).rejected);
}

TEST(ChiSquareFit, IgnoresZeroProbabilityCategoriesAndCannotRejectOneCategory) {
  FitResult fit = chi_square_fit({0.5, 0.0, 0.5}, {5000, 0, 5000});
  EXPECT_EQ(fit.degrees_of_freedom, 1);
  EXPECT_FALSE(fit.rejected);
  EXPECT_NE(fit.worst_category, 1);
  EXPECT_FALSE(chi_square_fit({1.0}, {100}).rejected);
}

TEST(DrawsForPower, GrowsAsTheDeviationShrinks) {
  const std::vector<double> uniform(10, 0.1);
  std::int64_t coarse = draws_for_power(uniform, 0.1);
  std::int64_t standard = draws_for_power(uniform, 0.02);
  std::int64_t fine = draws_for_power(uniform, 0.01);
  std::int64_t finer = draws_for_power(uniform, 0.005);
  EXPECT_EQ(coarse, 20000) << "never fewer than the minimum";
  EXPECT_LT(coarse, standard);
  EXPECT_LT(standard, fine);
  EXPECT_LT(fine, finer);
  // Noncentrality grows as n deviation^2: halving the deviation needs about 4x the draws.
  EXPECT_GT(static_cast<double>(fine) / static_cast<double>(standard), 3.0);
  EXPECT_LT(static_cast<double>(fine) / static_cast<double>(standard), 5.0);
}

// Draws `n` categories from `probs` by inverse CDF on splitmix64.
std::vector<std::int64_t> sample_counts(const std::vector<double>& probs, std::int64_t n, std::uint64_t seed) {
  std::vector<double> cdf(probs.size());
  std::partial_sum(probs.begin(), probs.end(), cdf.begin());
  SplitMix64 stream(seed);
  std::vector<std::int64_t> counts(probs.size(), 0);
  for (std::int64_t i = 0; i < n; ++i) {
    double u = stream.uniform01() * cdf.back();
    std::size_t k = static_cast<std::size_t>(std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin());
    ++counts[std::min(k, probs.size() - 1)];
  }
  return counts;
}

TEST(ChiSquareSimulation, CorrectSamplerPassesAndOneOffByTwoPercentFails) {
  // p0 = 0.5 with the rest compensating in proportion is the least detectable
  // shift of 0.02 (noncentrality exactly 4 n 0.02^2): the power rule's worst case.
  const std::vector<double> probs = {0.5, 0.2, 0.15, 0.1, 0.03, 0.01, 0.005, 0.005};
  std::vector<double> shifted = probs;
  shifted[0] -= kDetectableDeviation;
  for (std::size_t i = 1; i < shifted.size(); ++i) shifted[i] *= (1 - shifted[0]) / (1 - probs[0]);
  const std::int64_t n = draws_for_power(probs);
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    FitResult correct = chi_square_fit(probs, sample_counts(probs, n, seed));
    EXPECT_FALSE(correct.rejected) << "seed " << seed << ": statistic " << correct.statistic << " > "
                                   << correct.threshold;
    FitResult wrong = chi_square_fit(probs, sample_counts(shifted, n, 1000 + seed));
    EXPECT_TRUE(wrong.rejected) << "seed " << seed << " (n " << n << "): statistic " << wrong.statistic
                                << " <= " << wrong.threshold;
    EXPECT_EQ(wrong.worst_category, 0) << "seed " << seed;
  }
}

TEST(DrawsForPower, NeedsFewerDrawsWhenNoTokenIsNearOneHalf) {
  // A shift is least visible in a category of probability 1/2; the draws
  // are sized for the distribution's hardest category, not for 1/2 always.
  const std::vector<double> flat(8, 0.125);
  const std::vector<double> with_half = {0.5, 0.2, 0.15, 0.1, 0.03, 0.01, 0.005, 0.005};
  EXPECT_LT(static_cast<double>(draws_for_power(flat)), 0.6 * static_cast<double>(draws_for_power(with_half)));
}

TEST(DrawsForPower, OneOutcomeNeedsOnlyTheDrawsThatShowAStrayToken) {
  // Only the support check can fail: a sampler that puts 0.02 of its mass
  // on other tokens must draw one, with probability 0.999.
  const std::int64_t n = draws_for_power({0.0, 1.0, 0.0});
  EXPECT_LT(n, 1000);
  EXPECT_LE(std::pow(1 - kDetectableDeviation, static_cast<double>(n)), 1e-3);
  EXPECT_GT(std::pow(1 - kDetectableDeviation, static_cast<double>(n - 1)), 1e-3) << "more draws than needed";
  EXPECT_EQ(draws_for_power({1.0}, 0.1), static_cast<std::int64_t>(std::ceil(std::log(1e-3) / std::log(0.9))));
}

TEST(DrawsForCoverage, EveryLikelyTokenComesUpExceptAtTheStatedRate) {
  const std::vector<double> probs = {0.5, 0.3, 0.17, 0.02, 0.01};
  const std::int64_t n = draws_for_coverage(probs);
  // The union bound over the tokens of probability at least 0.02 holds at
  // n, and is needed: a tenth fewer draws break it.
  auto miss = [&](std::int64_t draws) {
    double sum = 0;
    for (double p : probs)
      if (p >= 0.02) sum += std::pow(1 - p, static_cast<double>(draws));
    return sum;
  };
  EXPECT_LE(miss(n), kFalseRejectRate);
  EXPECT_GT(miss(n - n / 10), kFalseRejectRate);
  // Enough to see a stray token of probability 0.02 with probability 0.999.
  EXPECT_LE(std::pow(0.98, static_cast<double>(draws_for_coverage({1.0}))), 1e-3);
  EXPECT_LT(n, 1000) << "far fewer draws than a chi-square test";
}

TEST(ChiSquareSimulation, TheSmallerSampleStillCatchesAShiftOfTwoPercent) {
  // A flat distribution, one token up by 0.02 and the rest down in proportion.
  const std::vector<double> probs(8, 0.125);
  std::vector<double> shifted = probs;
  shifted[3] += kDetectableDeviation;
  for (std::size_t i = 0; i < shifted.size(); ++i)
    if (i != 3) shifted[i] *= (1 - shifted[3]) / (1 - probs[3]);
  const std::int64_t n = draws_for_power(probs);
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    EXPECT_FALSE(chi_square_fit(probs, sample_counts(probs, n, seed)).rejected) << "seed " << seed;
    FitResult wrong = chi_square_fit(probs, sample_counts(shifted, n, 2000 + seed));
    EXPECT_TRUE(wrong.rejected) << "seed " << seed << " (n " << n << "): statistic " << wrong.statistic
                                << " <= " << wrong.threshold;
    EXPECT_EQ(wrong.worst_category, 3) << "seed " << seed;
  }
}

// The probability, under Binomial(n, p), that fits_within accepts the
// two-category distribution {e, 1 - e}: exact, summed over every count.
double chance_of_accepting(double e, double p, std::int64_t n, double miss_rate) {
  double total = 0;
  for (std::int64_t c = 0; c <= n; ++c) {
    if (!fits_within({e, 1 - e}, {c, n - c}, kDetectableDeviation, miss_rate)) continue;
    double log_mass = std::lgamma(static_cast<double>(n) + 1) - std::lgamma(static_cast<double>(c) + 1) -
                      std::lgamma(static_cast<double>(n - c) + 1) + static_cast<double>(c) * std::log(p) +
                      static_cast<double>(n - c) * std::log1p(-p);
    total += std::exp(log_mass);
  }
  return total;
}

TEST(FitsWithin, ASamplerOffByTheDeviationIsAcceptedAtMostAtTheMissRate) {
  const double miss = accept_look_miss_rate(kMissRate);
  for (double e : {0.5, 0.27, 0.1, 0.03}) {
    for (std::int64_t n : {2000, 6000, 14000, 30000, 60000}) {
      for (double off : {kDetectableDeviation, -kDetectableDeviation, 2 * kDetectableDeviation}) {
        double p = e + off;
        if (p <= 0 || p >= 1) continue;
        EXPECT_LE(chance_of_accepting(e, p, n, miss), miss) << "e " << e << " p " << p << " n " << n;
      }
    }
  }
}

TEST(FitsWithin, ACorrectSamplerIsAcceptedOnceItHasDrawnEnough) {
  const double miss = accept_look_miss_rate(kMissRate);
  // A correct sampler's counts: accepted with near certainty at 40,000
  // draws, never at 2,000, where the draws cannot yet tell 0.02 apart.
  EXPECT_GT(chance_of_accepting(0.5, 0.5, 40000, miss), 0.99);
  EXPECT_EQ(chance_of_accepting(0.5, 0.5, 2000, miss), 0.0);
  // Exactly the expected frequencies, and one category 0.02 off.
  EXPECT_TRUE(fits_within({0.5, 0.3, 0.2}, {15000, 9000, 6000}, kDetectableDeviation, miss));
  EXPECT_FALSE(fits_within({0.5, 0.3, 0.2}, {15600, 8400, 6000}, kDetectableDeviation, miss));
  // Draws outside the distribution (a last category of strays) count too.
  EXPECT_FALSE(fits_within({0.5, 0.5}, {14000, 14000, 2000}, kDetectableDeviation, miss));
  EXPECT_TRUE(fits_within({0.5, 0.5}, {15000, 15000, 0}, kDetectableDeviation, miss));
  EXPECT_FALSE(fits_within({0.5, 0.5}, {}, kDetectableDeviation, miss));
}

TEST(FitsWithin, StopsACorrectSamplersSequentialTestFarBeforeItsPlannedDraws) {
  // Batches as the distribution checker draws them, through a chi-square
  // design's hardest case (a token near 1/2).
  const std::vector<double> probs = {0.5, 0.2, 0.15, 0.1, 0.03, 0.01, 0.005, 0.005};
  const std::int64_t planned = draws_for_sequential_test(probs, kFalseRejectRate, 2000);
  std::vector<std::int64_t> stops;
  for (std::uint64_t seed = 1; seed <= 15; ++seed) {
    std::vector<std::int64_t> counts(probs.size(), 0);
    std::int64_t n = 0;
    for (int look = 0; look < kMaxAcceptLooks && n < planned; ++look) {
      std::int64_t batch = look == 0 ? 2000 : 4000;
      std::vector<std::int64_t> more = sample_counts(probs, batch, seed * 100 + static_cast<std::uint64_t>(look));
      for (std::size_t i = 0; i < probs.size(); ++i) counts[i] += more[i];
      n += batch;
      if (fits_within(probs, counts, kDetectableDeviation, accept_look_miss_rate(kMissRate))) break;
    }
    stops.push_back(n);
  }
  std::sort(stops.begin(), stops.end());
  EXPECT_LT(static_cast<double>(stops[stops.size() / 2]), 0.5 * static_cast<double>(planned))
      << "median stop " << stops[stops.size() / 2] << " of " << planned;
}

TEST(DrawsForSequentialTest, SpendsBothRatesOverTheLooksUnlessOneLookSuffices) {
  const std::vector<double> probs = {0.5, 0.3, 0.2};
  const std::int64_t single = draws_for_power(probs, kDetectableDeviation, kFalseRejectRate, kMissRate);
  const std::int64_t sequential = draws_for_sequential_test(probs, kFalseRejectRate, 2000);
  EXPECT_EQ(sequential, draws_for_power(probs, kDetectableDeviation, final_look_rate(kFalseRejectRate),
                                        final_look_miss_rate(kMissRate)));
  EXPECT_GT(sequential, single);
  EXPECT_LT(static_cast<double>(sequential), 1.2 * static_cast<double>(single)) << "the shares cost little";
  // One outcome: one look of 342 draws, at the whole miss rate.
  EXPECT_EQ(draws_for_sequential_test({0.0, 1.0}, kFalseRejectRate, 2000), 342);
}

// Histograms of `n` draws from `probs` with std::discrete_distribution.
std::vector<std::int64_t> histogram(const std::vector<double>& probs, int n, std::uint64_t seed) {
  std::mt19937_64 generator(seed);
  std::discrete_distribution<int> pick(probs.begin(), probs.end());
  std::vector<std::int64_t> counts(probs.size(), 0);
  for (int i = 0; i < n; ++i) ++counts[static_cast<std::size_t>(pick(generator))];
  return counts;
}

TEST(SameDistribution, TellsSamplersApartOnlyByWhatTheirDrawsShow) {
  EXPECT_TRUE(same_distribution(histogram({0.5, 0.3, 0.2}, 2000, 1), histogram({0.5, 0.3, 0.2}, 2000, 2)));
  EXPECT_FALSE(same_distribution(histogram({0.5, 0.3, 0.2}, 2000, 1), histogram({0.2, 0.3, 0.5}, 2000, 2)));

  // Two samplers spread over a large vocabulary: 40 draws each, nearly all
  // on tokens drawn once. Alike when both are spread...
  const std::vector<double> flat(100000, 1.0 / 100000);
  const std::vector<std::int64_t> spread_a = histogram(flat, 40, 3), spread_b = histogram(flat, 40, 4);
  EXPECT_TRUE(same_distribution(spread_a, spread_b));
  // ...and not alike when one puts its draws on two tokens, though a test
  // over the single draws alone would find nothing (each category holds one
  // draw of one side or the other, whatever the samplers).
  std::vector<double> two(100000, 0.0);
  two[4464] = two[65535] = 0.5;
  const std::vector<std::int64_t> concentrated = histogram(two, 40, 5);
  EXPECT_FALSE(same_distribution(concentrated, spread_a));
  EXPECT_LT(homogeneity_test(concentrated, spread_a).p_value, 1e-6);
}

TEST(RepeatsToSeeAnIgnoredSeed, CatchASamplerThatDrawsAfreshOnARepeatAtTheMissRate) {
  // A seed-ignoring sampler of the right distribution repeats a token with
  // probability sum p^2 = 0.5: ten repeats all agree with probability
  // 2^-10 < 0.001, nine with 2^-9 > 0.001.
  EXPECT_EQ(repeats_to_see_an_ignored_seed({0.5, 0.5}), 10);
  for (const std::vector<double>& probs :
       {std::vector<double>{0.4, 0.4, 0.1, 0.1}, {0.9, 0.1}, {0.25, 0.25, 0.25, 0.25}, {0.98, 0.02}}) {
    double agree = 0;
    for (double p : probs) agree += p * p;
    const std::int64_t r = repeats_to_see_an_ignored_seed(probs);
    EXPECT_LE(std::pow(agree, static_cast<double>(r)), kMissRate);
    EXPECT_GT(std::pow(agree, static_cast<double>(r - 1)), kMissRate);
  }
  // With every draw the same token, no repeat can tell.
  EXPECT_EQ(repeats_to_see_an_ignored_seed({0.0, 1.0, 0.0}), -1);
}

}  // namespace
}  // namespace judge
