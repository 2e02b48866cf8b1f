// Shrinking failed cases: for the first failing case of each kind of
// failure, the smallest input found within a time budget on which the
// learner's code still fails the case's check the same way (same verdict,
// same failure kind, under the case's comparison rule and tolerance),
// checked once more before it is shown.
//
// Every candidate is first put to the reference, which must accept it as
// the case does (return a value, or throw std::invalid_argument where the
// case expects that) and find it off the problem's decision boundaries
// (its margin rule): an input the contract forbids is never shown. The
// learner's code runs only in its runner, as when judging. Sampler cases
// judged by distribution are not drawn again thousands of times: a support
// failure (a token of probability 0 drawn) or a seed ignored is shrunk
// with a fixed number of draws; a case whose op names a `fixed_answer` op
// (a round of speculative decoding with its answer stored) is shrunk only
// to inputs whose answer no draw can change, which that trusted op of the
// reference's runner gives; other sampler failures, and checks that time
// the code or test laws over many rounds, are said not to be shrunk.
#pragma once

#include <vector>

#include "judging/case_scheduler.hpp"
#include "package/problem.hpp"
#include "package/verdict.hpp"

namespace judge {

// The default budget of `judge run` (--shrink-budget changes it).
inline constexpr double kDefaultShrinkBudgetMs = 1000;

// Draws per candidate when a sampler's support or determinism failure is
// shrunk: enough to draw a dropped token that holds a tenth of the mass
// (with probability 1 - 0.9^200), few enough that a candidate costs a call.
inline constexpr std::int64_t kShrinkDraws = 200;

// The shrunk examples of `results` (judged on `cases`, in case order): one
// per kind of failure, at most three, the budget shared among them.
std::vector<ShrunkExample> shrink_failures(const Problem& problem, const std::vector<const TestCase*>& cases,
                                           const std::vector<TestResult>& results, const CaseRunSetup& setup,
                                           CaseRunners& runners, double budget_ms);

}  // namespace judge
