// A runner's decoded reply against what the harness writes: the three
// forms read into a call, everything else refused with a reason; a value
// against the type its op declares.
#include "run/reply.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "through_channel.hpp"

namespace judge {
namespace {
using nlohmann::json;

// Why read_reply refuses `reply`; empty when it reads it.
std::string refusal(json reply) {
  CallResult call;
  std::string problem;
  return read_reply(reply, &call, &problem) ? "" : problem;
}

TEST(ReadReply, ReadsTheThreeFormsTheHarnessWrites) {
  CallResult value;
  std::string problem;
  json reply = {{"value", {1.5, 2.0}}};
  ASSERT_TRUE(read_reply(reply, &value, &problem)) << problem;
  EXPECT_EQ(value.outcome, CallResult::Outcome::kValue);
  EXPECT_EQ(value.value, json({1.5, 2.0}));

  CallResult thrown;
  reply = {{"exception", "invalid_argument"}, {"type", "std::invalid_argument"}, {"what", "empty"}};
  ASSERT_TRUE(read_reply(reply, &thrown, &problem)) << problem;
  EXPECT_EQ(thrown.outcome, CallResult::Outcome::kException);
  EXPECT_EQ(thrown.exception_kind, "invalid_argument");
  EXPECT_EQ(thrown.exception_type, "std::invalid_argument");
  EXPECT_EQ(thrown.what, "empty");

  CallResult harness;
  reply = {{"harness_error", "unknown operation 'x'"}};
  ASSERT_TRUE(read_reply(reply, &harness, &problem)) << problem;
  EXPECT_EQ(harness.outcome, CallResult::Outcome::kHarnessError);
  EXPECT_EQ(harness.detail, "unknown operation 'x'");
}

TEST(ReadReply, RefusesEveryOtherShapeAndLeavesTheCallAsItWas) {
  const std::string kNoForm = "none of {value}, {exception, type, what} or {harness_error}";
  EXPECT_EQ(refusal(json::array({1})), "a list of 1, not a map");
  EXPECT_EQ(refusal(7), "an integer, not a map");
  EXPECT_EQ(refusal(nullptr), "nothing, not a map");
  EXPECT_EQ(refusal(json::object()), "a map of 0 keys that is " + kNoForm);
  EXPECT_EQ(refusal({{"value", 1}, {"extra", 2}}), "a map of 2 keys that is " + kNoForm);
  EXPECT_EQ(refusal({{"exception", "other"}, {"what", "x"}}), "a map of 2 keys that is " + kNoForm);
  EXPECT_EQ(refusal({{"harness_error", 3}}), "a harness error that is not a string");
  EXPECT_EQ(refusal({{"exception", "segfault"}, {"type", "t"}, {"what", "w"}}),
            "an exception of a kind the harness does not write");
  EXPECT_EQ(refusal({{"exception", 1}, {"type", "t"}, {"what", "w"}}),
            "an exception of a kind the harness does not write");
  EXPECT_EQ(refusal({{"exception", "other"}, {"type", "t"}, {"what", {{"nested", true}}}}),
            "an exception whose type or what() is not a string");
  EXPECT_EQ(refusal({{"exception", "other"}, {"type", 5}, {"what", "w"}}),
            "an exception whose type or what() is not a string");
  CallResult untouched;
  std::string problem;
  json reply = {{"exception", "other"}, {"type", 5}, {"what", "w"}};
  EXPECT_FALSE(read_reply(reply, &untouched, &problem));
  EXPECT_EQ(untouched.outcome, CallResult::Outcome::kDied);
  EXPECT_EQ(untouched.what, "");
}

TEST(ReadReply, ReadsTheChangedInputsBesideAValueOrAnException) {
  const json entry = {{"input", "logits"}, {"matrix", false}, {"entry", {3, 0}}, {"was", 1.5}, {"now", 0.2}};
  const json shape = {{"input", "q"}, {"matrix", true}, {"shape_was", {2, 3}}, {"shape_now", {0, 3}}};
  CallResult value;
  std::string problem;
  json reply = {{"value", {0.5}}, {"changed_inputs", {entry, shape}}};
  ASSERT_TRUE(read_reply(reply, &value, &problem)) << problem;
  EXPECT_EQ(value.outcome, CallResult::Outcome::kValue);
  EXPECT_EQ(value.changed_inputs, json({entry, shape}));

  CallResult thrown;
  reply = {{"exception", "other"}, {"type", "t"}, {"what", "w"}, {"changed_inputs", {entry}}};
  ASSERT_TRUE(read_reply(reply, &thrown, &problem)) << problem;
  EXPECT_EQ(thrown.outcome, CallResult::Outcome::kException);
  EXPECT_EQ(thrown.changed_inputs, json({entry}));

  EXPECT_EQ(refusal({{"harness_error", "x"}, {"changed_inputs", {entry}}}),
            "changed inputs beside neither a value nor an exception");
  EXPECT_EQ(refusal({{"value", 1}, {"changed_inputs", json::array()}}), "changed inputs that are not a non-empty list");
  const std::string kNotAFact =
      "a changed input that is not {input, matrix, entry, was, now} or {input, matrix, shape_was, shape_now}";
  EXPECT_EQ(refusal({{"value", 1}, {"changed_inputs", {{{"input", "x"}}}}}), kNotAFact);
  json forged = entry;
  forged["extra"] = 1;
  EXPECT_EQ(refusal({{"value", 1}, {"changed_inputs", {forged}}}), kNotAFact);
  EXPECT_EQ(refusal({{"value", 1}, {"extra", 2}, {"changed_inputs", {entry}}}),
            "a map of 2 keys that is none of {value}, {exception, type, what} or {harness_error}");
}

TEST(ValueTypeProblem, AcceptsWhatTheHarnessWritesForEachType) {
  const std::pair<ValueType, json> fits[] = {
      {ValueType::kNumber, 0.5},
      {ValueType::kNumber, 3},
      {ValueType::kNumber,
       std::numeric_limits<double>::quiet_NaN()},  // a learner's NaN is a wrong answer, not a forgery
      {ValueType::kInteger, -7},
      {ValueType::kInteger, std::numeric_limits<std::int64_t>::min()},
      {ValueType::kSeed, std::numeric_limits<std::uint64_t>::max()},
      {ValueType::kDoubles, json::array()},
      {ValueType::kDoubles, {1.5, -std::numeric_limits<double>::infinity()}},
      {ValueType::kInts, {3, -2}},
      {ValueType::kSeeds, {0u, std::numeric_limits<std::uint64_t>::max()}},
      {ValueType::kMatrix, json::array()},
      {ValueType::kMatrix, {{1.0, 2.0}, {3.0, 4.0}}},
      {ValueType::kBool, true},
      {ValueType::kString, "text"},
      {ValueType::kAny, {{"anything", {1, "at all"}}}},
  };
  for (const auto& [type, value] : fits) {
    EXPECT_EQ(value_type_problem(type, value), std::nullopt) << value.dump();
    EXPECT_EQ(value_type_problem(type, testing::through_channel(value)), std::nullopt) << value.dump() << " (typed)";
  }
}

TEST(ValueTypeProblem, RefusesWrongTypesHugeNumbersAndNaNWhereAnIntegerIsDue) {
  const json beyond_int64 = std::numeric_limits<std::uint64_t>::max();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::pair<ValueType, json> misfits[] = {
      {ValueType::kDoubles, "0.5"},
      {ValueType::kDoubles, {1.0, "2"}},
      {ValueType::kInts, {1, nan}},
      {ValueType::kInts, json::array({1, beyond_int64})},
      {ValueType::kInteger, beyond_int64},
      {ValueType::kInteger, 2.0},
      {ValueType::kSeed, -1},
      {ValueType::kSeeds, {1, -1}},
      {ValueType::kMatrix, {1.0, 2.0}},
      {ValueType::kMatrix, {{1.0, 2.0}, {3.0}}},
      {ValueType::kMatrix, {{1.0, nullptr}}},
      {ValueType::kNumber, {{"value", 1}}},
      {ValueType::kBool, 1},
      {ValueType::kString, 1},
  };
  for (const auto& [type, value] : misfits) {
    EXPECT_NE(value_type_problem(type, value), std::nullopt) << value.dump();
    EXPECT_NE(value_type_problem(type, testing::through_channel(value)), std::nullopt) << value.dump() << " (typed)";
  }
  // Doubles where integers are due: a forged typed array, however short.
  const json doubles = testing::through_channel(json{1.0, 2.5});
  EXPECT_EQ(value_type_problem(ValueType::kInts, doubles).value_or(""),
            "its value is a list of 2 doubles, where the op returns a list of integers of at most 64 bits");
  EXPECT_NE(value_type_problem(ValueType::kSeeds, doubles), std::nullopt);
  EXPECT_NE(value_type_problem(ValueType::kMatrix, doubles), std::nullopt) << "a matrix is a list of rows";
  EXPECT_EQ(value_type_problem(ValueType::kMatrix, testing::through_channel(json{{1.0, 2.0}, {3.0}})).value_or(""),
            "its value is a matrix whose row 1 has 1 entries and row 0 2, where the op returns a matrix (a list of "
            "rows of numbers, all of one length)");
  EXPECT_EQ(value_type_problem(ValueType::kInts, {1, nan}).value_or(""),
            "its value is a list whose entry 1 is NaN, where the op returns a list of integers of at most 64 bits");
  EXPECT_EQ(value_type_problem(ValueType::kInteger, beyond_int64).value_or(""),
            "its value is an integer beyond int64, where the op returns an integer of at most 64 bits");
  EXPECT_EQ(value_type_problem(ValueType::kMatrix, {{1.0, 2.0}, {3.0}}).value_or(""),
            "its value is a matrix whose row 1 has 1 entries and row 0 2, where the op returns a matrix (a list of "
            "rows of numbers, all of one length)");
  EXPECT_EQ(value_type_problem(ValueType::kDoubles, "0.5").value_or(""),
            "its value is a string, where the op returns a list of numbers");
}

TEST(MalformedReply, NamesTheOpWhenGiven) {
  EXPECT_EQ(malformed_reply("a list of 1, not a map"), "malformed reply: a list of 1, not a map");
  EXPECT_EQ(malformed_reply("its value is a string", "f"), "malformed reply to 'f': its value is a string");
}

TEST(IsInt, TakesIntegersInAnIntsRangeOnly) {
  EXPECT_TRUE(is_int(0));
  EXPECT_TRUE(is_int(std::numeric_limits<int>::max()));
  EXPECT_TRUE(is_int(std::numeric_limits<int>::min()));
  EXPECT_FALSE(is_int(std::int64_t{std::numeric_limits<int>::max()} + 1));
  EXPECT_FALSE(is_int(std::int64_t{1} << 32)) << "would wrap to token 0";
  EXPECT_FALSE(is_int(std::numeric_limits<std::uint64_t>::max()));
  EXPECT_FALSE(is_int(1.0));
}

}  // namespace
}  // namespace judge
