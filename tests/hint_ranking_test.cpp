// The pure part of finding hints: which cases the known mistakes are run on
// (cases_to_compare), and which mistakes are named, in which order
// (rank_mistakes). The runs themselves are tested end to end through the
// problems' hint tests (`judge validate`, tests/solutions_test.cpp).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "judging/hints.hpp"

namespace judge {
namespace {

TestCase a_case(const std::string& name, const std::string& check, int time_ms = 1000) {
  TestCase test;
  test.name = name;
  test.op = "op";
  test.check = check;
  test.time_ms = time_ms;
  return test;
}

TestResult judged(Verdict verdict, const std::string& failure_kind = "") {
  TestResult result;
  result.verdict = verdict;
  result.failure_kind = failure_kind;
  return result;
}

std::vector<std::string> names(const std::vector<const TestCase*>& cases, const std::vector<std::size_t>& indices) {
  std::vector<std::string> out;
  for (std::size_t i : indices) out.push_back(cases[i]->name);
  return out;
}

TEST(HintRanking, CheapPassesRuleOutAndComparableFailuresAreCompared) {
  const std::vector<TestCase> storage = {
      a_case("cheap_pass", "values"),
      a_case("cheap_fail", "values"),
      a_case("timed_out", "values"),               // compared with the mistakes stated too slow only
      a_case("sampler_pass", "distribution"),      // not cheap: not run to rule out
      a_case("sampler_fail", "distribution"),      // costly, compared
      a_case("slow", "performance"),               // failed for slowness
      a_case("timed_wrong_value", "performance"),  // repeats what cheaper cases show
      a_case("timed_timed_out", "performance"),    // slowness too: a call past the case's time limit
  };
  std::vector<const TestCase*> cases;
  for (const TestCase& test : storage) cases.push_back(&test);
  const std::vector<TestResult> results = {
      judged(Verdict::kAccepted),
      judged(Verdict::kWrongAnswer, "value"),
      judged(Verdict::kTimeLimitExceeded, "timeout"),
      judged(Verdict::kAccepted),
      judged(Verdict::kWrongAnswer, "distribution"),
      judged(Verdict::kTimeLimitExceeded, "slow"),
      judged(Verdict::kWrongAnswer, "value"),
      judged(Verdict::kTimeLimitExceeded, "timeout"),
  };
  CasesToCompare chosen = cases_to_compare(cases, results);
  EXPECT_EQ(names(cases, chosen.passed), std::vector<std::string>{"cheap_pass"});
  EXPECT_EQ(names(cases, chosen.failed), (std::vector<std::string>{"cheap_fail", "sampler_fail"}));
  EXPECT_EQ(names(cases, chosen.slow), (std::vector<std::string>{"slow", "timed_timed_out"}));
  EXPECT_EQ(names(cases, chosen.timed_out), std::vector<std::string>{"timed_out"});
}

TEST(HintRanking, AtMostAFewUntimedTimeOutsAreCompared) {
  std::vector<TestCase> storage;
  for (int i = 0; i < 5; ++i) storage.push_back(a_case("loops_" + std::to_string(i), "values"));
  std::vector<const TestCase*> cases;
  for (const TestCase& test : storage) cases.push_back(&test);
  std::vector<TestResult> results(cases.size(), judged(Verdict::kTimeLimitExceeded, "timeout"));
  results[1].not_run = true;  // marked with the kind of the case it followed, never run itself
  CasesToCompare chosen = cases_to_compare(cases, results);
  EXPECT_EQ(names(cases, chosen.timed_out), (std::vector<std::string>{"loops_0", "loops_2", "loops_3"}));
}

TEST(HintRanking, OnlyAFewCostlyFailuresAreComparedTheCheapestOfEachKindFirst) {
  std::vector<TestCase> storage;
  for (int i = 0; i < 6; ++i)
    storage.push_back(a_case("sampler_" + std::to_string(i), "distribution", 6000 - i * 1000));
  storage.push_back(a_case("speculative", "speculative", 9000));
  std::vector<const TestCase*> cases;
  for (const TestCase& test : storage) cases.push_back(&test);
  std::vector<TestResult> results(cases.size(), judged(Verdict::kWrongAnswer, "distribution"));
  CasesToCompare chosen = cases_to_compare(cases, results);
  ASSERT_EQ(chosen.failed.size(), kCostlyFailuresCompared);
  EXPECT_EQ(names(cases, chosen.failed)[0], "sampler_5") << "the cheapest by its time limit first";
  EXPECT_EQ(names(cases, chosen.failed)[1], "speculative") << "then the first of another check";
}

TEST(HintRanking, TheMistakeExplainingMostComesFirstThenWhatIsLeft) {
  const std::vector<std::string> notes = {"a: explains 0 and 1", "b: explains 0, 1 and 2", "c: explains 3 and 4"};
  const std::vector<std::string> case_names = {"c0", "c1", "c2", "c3", "c4"};
  std::vector<Hint> hints = rank_mistakes({{0, 1}, {0, 1, 2}, {3, 4}}, notes, case_names, 5);
  ASSERT_EQ(hints.size(), 2u) << "a explains nothing b does not";
  EXPECT_EQ(hints[0].mistake, notes[1]);
  EXPECT_EQ(hints[0].cases, (std::vector<std::string>{"c0", "c1", "c2"}));
  EXPECT_EQ(hints[1].mistake, notes[2]);
  EXPECT_EQ(hints[1].cases, (std::vector<std::string>{"c3", "c4"}));
}

TEST(HintRanking, OneFailureAlikeAmongManyIsACoincidence) {
  const std::vector<std::string> notes = {"one", "two"};
  const std::vector<std::string> case_names = {"c0", "c1", "c2"};
  EXPECT_TRUE(rank_mistakes({{0}, {}}, notes, case_names, 3).empty());
  // When only one failure was compared, explaining it is enough.
  std::vector<Hint> only = rank_mistakes({{0}, {}}, notes, case_names, 1);
  ASSERT_EQ(only.size(), 1u);
  EXPECT_EQ(only[0].mistake, "one");
}

TEST(HintRanking, OneConclusiveFailureAlikeIsEnough) {
  const std::vector<std::string> notes = {"keeps state", "other"};
  const std::vector<std::string> case_names = {"c0", "c1", "independent_calls"};
  std::vector<Hint> hints = rank_mistakes({{2}, {0}}, notes, case_names, 3, {2});
  ASSERT_EQ(hints.size(), 1u) << "the conclusive failure names its mistake; one plain failure alike still does not";
  EXPECT_EQ(hints[0].mistake, "keeps state");
  EXPECT_EQ(hints[0].cases, (std::vector<std::string>{"independent_calls"}));
}

TEST(HintRanking, TheCatalogsOrderBreaksTies) {
  std::vector<Hint> hints = rank_mistakes({{0, 1}, {0, 1}}, {"first", "second"}, {"c0", "c1"}, 2);
  ASSERT_EQ(hints.size(), 1u);
  EXPECT_EQ(hints[0].mistake, "first");
}

}  // namespace
}  // namespace judge
