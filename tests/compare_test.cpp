// The one comparison rule (numbers_match) and whole-output comparison
// (compare_output): every message a learner can see, pinned in full.
#include "check/compare.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <tuple>

#include "run/number_list.hpp"
#include "through_channel.hpp"

namespace judge {
namespace {
using nlohmann::json;

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

struct MatchCase {
  const char* protects;
  double want;
  double got;
  Tolerance tolerance;
  bool matches;
};

const MatchCase kMatchCases[] = {
    {"equal values match", 0.25, 0.25, {1e-9, 1e-6}, true},
    {"negative zero equals zero", 0.0, -0.0, {0, 0}, true},
    {"an error equal to atol passes", 0.0, 1e-9, {1e-9, 0}, true},
    {"an error above atol fails", 0.0, 2e-9, {1e-9, 0}, false},
    {"an error within rtol of want passes", 1e6, 1e6 + 0.5, {1e-9, 1e-6}, true},
    {"an error above rtol of want fails", 1e6, 1e6 + 2, {1e-9, 1e-6}, false},
    {"rtol scales with want, not got", 1.0, 2.5, {0, 0.6}, false},
    {"rtol uses the magnitude of a negative want", -1e6, -1e6 - 0.5, {0, 1e-6}, true},
    {"either bound suffices: atol when rtol is 0", 5.0, 5.05, {0.1, 0}, true},
    {"got NaN never passes", 0.5, kNaN, {kInf, kInf}, false},
    {"want NaN never passes", kNaN, 0.5, {kInf, kInf}, false},
    {"NaN does not even match NaN", kNaN, kNaN, {kInf, kInf}, false},
    {"expected inf matched by inf", kInf, kInf, {0, 0}, true},
    {"expected -inf matched by -inf", -kInf, -kInf, {0, 0}, true},
    {"expected -inf is not matched by inf", -kInf, kInf, {kInf, kInf}, false},
    {"expected inf is not matched by -inf", kInf, -kInf, {kInf, kInf}, false},
    {"expected inf is not matched by the largest double", kInf, 1.7976931348623157e308, {kInf, kInf}, false},
    {"got inf never matches a finite want", 1e308, kInf, {kInf, kInf}, false},
    {"got -inf never matches a finite want", 0.0, -kInf, {kInf, kInf}, false},
};

TEST(NumbersMatch, FollowsTheOneComparisonRule) {
  for (const MatchCase& c : kMatchCases)
    EXPECT_EQ(numbers_match(c.want, c.got, c.tolerance), c.matches)
        << c.protects << ": want " << c.want << ", got " << c.got;
}

struct OutputCase {
  const char* protects;
  ValueType type;
  json want;
  json got;
  std::optional<std::string> message;  // nullopt: must match
  Tolerance tolerance = {1e-9, 1e-6};
};

json J(const char* text) { return json::parse(text); }

std::vector<OutputCase> output_cases() {
  return {
      // doubles
      {"doubles within tolerance match", ValueType::kDoubles, {0.5, 0.25}, {0.5, 0.2500000001}, std::nullopt},
      {"doubles: a length mismatch is named",
       ValueType::kDoubles,
       {1.0, 2.0, 3.0},
       {1.0, 2.0},
       "expected 3 values, got 2"},
      {"doubles: an empty result for a non-empty expectation",
       ValueType::kDoubles,
       {1.0},
       json::array(),
       "expected 1 values, got 0"},
      {"doubles: a scalar instead of a list",
       ValueType::kDoubles,
       {1.0, 2.0, 3.0},
       0.5,
       "expected a list of 3 numbers, got a number"},
      {"doubles: a non-number entry",
       ValueType::kDoubles,
       {0.5, 0.5},
       {0.5, "x"},
       "index 1: expected a number, got a string"},
      {"doubles: one wrong entry names index, expected, got and error",
       ValueType::kDoubles,
       {0.659, 0.2424, 0.0986},
       {0.659, 0.2424, 0.1},
       "index 2: expected 0.0986, got 0.1 (error 0.0014); 1 of 3 entries wrong"},
      {"doubles: the first and the worst mismatch are both named",
       ValueType::kDoubles,
       {1.0, 2.0, 3.0, 4.0},
       {1.1, 2.0, 5.0, 4.0},
       "index 0: expected 1, got 1.1 (error 0.1); worst index 2: expected 3, got 5 (error 2); 2 of 4 entries wrong"},
      {"doubles: a NaN entry fails",
       ValueType::kDoubles,
       {0.5, 0.5},
       {0.5, kNaN},
       "index 1: expected 0.5, got nan (error nan); 1 of 2 entries wrong"},
      {"doubles: a NaN is worse than any finite error",
       ValueType::kDoubles,
       {1.0, 1.0},
       {1.5, kNaN},
       "index 0: expected 1, got 1.5 (error 0.5); worst index 1: expected 1, got nan (error nan); 2 of 2 entries "
       "wrong"},
      {"doubles: an infinity of the wrong sign fails",
       ValueType::kDoubles,
       {-kInf, 0.5},
       {kInf, 0.5},
       "index 0: expected -inf, got inf (error inf); 1 of 2 entries wrong"},
      {"doubles: an infinity where a finite value is expected fails",
       ValueType::kDoubles,
       {0.5},
       {kInf},
       "index 0: expected 0.5, got inf (error inf); 1 of 1 entries wrong"},
      {"doubles: exact -inf entries match", ValueType::kDoubles, {-kInf, 0.0}, {-kInf, 0.0}, std::nullopt},
      {"doubles: tiny numbers are printed in exponent form",
       ValueType::kDoubles,
       {4.4581369506396168e-5},
       {4.5e-5},
       "index 0: expected 4.458137e-05, got 4.5e-05 (error 4.186305e-07); 1 of 1 entries wrong"},
      {"doubles: a case's own tolerance is used (its checker names it)",
       ValueType::kDoubles,
       {1.0},
       {1.02},
       "index 0: expected 1, got 1.02 (error 0.02); 1 of 1 entries wrong",
       Tolerance{0.01, 0}},
      {"doubles: a case's own tolerance lets a close value pass",
       ValueType::kDoubles,
       {1.0},
       {1.005},
       std::nullopt,
       Tolerance{0.01, 0}},
      // ints and seeds
      {"ints equal match", ValueType::kInts, {1, 2, 3}, {1, 2, 3}, std::nullopt},
      {"ints are exact: a different entry fails with both lists shown",
       ValueType::kInts,
       {1, 2, 3},
       {1, 5, 3},
       "index 1: expected 2, got 5 (expected [1, 2, 3], got [1, 5, 3])"},
      {"ints: a length mismatch shows what came back",
       ValueType::kInts,
       {1, 2, 3},
       {1, 2},
       "expected 3 integers, got 2: [1, 2]"},
      {"ints: a scalar instead of a list",
       ValueType::kInts,
       {1, 2, 3},
       7,
       "expected a list of 3 integers, got an integer"},
      {"ints: no tolerance even for huge values",
       ValueType::kInts,
       {1000000000},
       {1000000001},
       "index 0: expected 1000000000, got 1000000001 (expected [1000000000], got [1000000001])"},
      {"seeds compare the full unsigned 64-bit range",
       ValueType::kSeeds,
       {18446744073709551615ull},
       {18446744073709551615ull},
       std::nullopt},
      // matrix
      {"matrix within tolerance matches", ValueType::kMatrix, J("[[1.0, 2.0], [3.0, 4.0]]"),
       J("[[1.0, 2.0], [3.0, 4.0000000001]]"), std::nullopt},
      {"matrix: a row count mismatch", ValueType::kMatrix, J("[[1.0, 2.0], [3.0, 4.0]]"), J("[[1.0, 2.0]]"),
       "expected 2 rows, got 1"},
      {"matrix: a wrong entry names its row and index", ValueType::kMatrix, J("[[1.0, 2.0], [3.0, 4.0]]"),
       J("[[1.0, 2.0], [3.0, 4.5]]"), "row 1: index 1: expected 4, got 4.5 (error 0.5); 1 of 2 entries wrong"},
      {"matrix: a short row", ValueType::kMatrix, J("[[1.0, 2.0], [3.0, 4.0]]"), J("[[1.0, 2.0], [3.0]]"),
       "row 1: expected 2 values, got 1"},
      {"matrix: a scalar instead of rows", ValueType::kMatrix, J("[[1.0, 2.0], [3.0, 4.0]]"), 1.0,
       "expected a 2-row matrix, got a number"},
      // any
      {"any: nested maps and lists match with floats within tolerance", ValueType::kAny,
       J(R"({"tokens": [1, 2], "score": -1.5, "meta": {"name": "x", "ok": true}})"),
       J(R"({"tokens": [1, 2], "score": -1.5000000001, "meta": {"name": "x", "ok": true}})"), std::nullopt},
      {"any: integers are exact and the path names the entry", ValueType::kAny, J(R"({"tokens": [1, 2]})"),
       J(R"({"tokens": [1, 3]})"), "tokens[1]: expected 2, got 3"},
      {"any: floats are tolerant and a failure names the path", ValueType::kAny, J(R"({"beams": [{"score": -1.5}]})"),
       J(R"({"beams": [{"score": -1.6}]})"), "beams[0].score: expected -1.5, got -1.6 (error 0.1)"},
      {"any: a missing key", ValueType::kAny, J(R"({"a": 1, "b": 2})"), J(R"({"a": 1})"), "missing 'b'"},
      {"any: a missing nested key names the map", ValueType::kAny, J(R"({"a": {"b": 1}})"), J(R"({"a": {}})"),
       "a: missing 'b'"},
      {"any: a scalar where a list is expected", ValueType::kAny, J(R"({"a": [1, 2]})"), J(R"({"a": 5})"),
       "a: expected a list of 2, got an integer"},
      {"any: a list of the wrong length", ValueType::kAny, J("[1, 2]"), J("[1]"), "expected 2 entries, got 1"},
      {"any: a list where a map is expected", ValueType::kAny, J(R"({"a": 1})"), J("[1]"),
       "expected a map, got a list of 1"},
      {"any: strings are exact", ValueType::kAny, J(R"({"s": "abc"})"), J(R"({"s": "abd"})"),
       "s: expected \"abc\", got \"abd\""},
      {"any: bools are exact", ValueType::kAny, true, false, "expected true, got false"},
      {"any: an integer expectation accepts the same value as a double", ValueType::kAny, 3, 3.0, std::nullopt},
      {"any: an integer expectation rejects a different double", ValueType::kAny, 3, 3.5,
       "expected 3, got 3.5 (error 0.5)"},
      {"any: a float expectation rejects NaN", ValueType::kAny, 0.5, kNaN, "expected 0.5, got nan (error nan)"},
      {"any: a float expectation rejects a string", ValueType::kAny, 0.5, "0.5", "expected a number, got a string"},
  };
}

TEST(CompareOutput, PinsEveryMessage) {
  for (const OutputCase& c : output_cases()) {
    std::optional<std::string> got = compare_output(c.type, c.want, c.got, c.tolerance);
    EXPECT_EQ(got, c.message) << c.protects << "\n  want " << c.want.dump() << "\n  got  " << c.got.dump();
  }
}

// A reply's lists of doubles reach the checkers as typed arrays, a problem
// file's as JSON lists: every case compares alike, with the same message,
// whichever way either side holds its lists.
TEST(CompareOutput, ReadsTypedArraysAsTheListsTheyHold) {
  for (const OutputCase& c : output_cases()) {
    const json want_typed = testing::through_channel(c.want), got_typed = testing::through_channel(c.got);
    for (const auto& [want, got, form] :
         {std::tuple{want_typed, got_typed, "both from a runner"},
          std::tuple{c.want, got_typed, "expected from a file"}, std::tuple{want_typed, c.got, "got from a fake"}}) {
      std::optional<std::string> message = compare_output(c.type, want, got, c.tolerance);
      EXPECT_EQ(message, c.message) << c.protects << " (" << form << ")\n  want " << c.want.dump() << "\n  got  "
                                    << c.got.dump();
    }
  }
  // The cases hold typed arrays: the loop above compared them.
  EXPECT_TRUE(is_typed_doubles(testing::through_channel(json{0.5, 0.25})));
}

TEST(FormatNumber, IsShortAndExact) {
  const std::pair<double, const char*> cases[] = {
      {0.0, "0"},
      {2.0, "2"},
      {-3.0, "-3"},
      {0.5, "0.5"},
      {0.0986, "0.0986"},
      {1e-9, "1e-09"},
      {1e-6, "1e-06"},
      {1.5e-7, "1.5e-07"},
      {kNaN, "nan"},
      {kInf, "inf"},
      {-kInf, "-inf"},
      {1234567.5, "1234567.5"},
      {1e20, "1e+20"},
      {-2.5e-300, "-2.5e-300"},
      {0.65900113888596791, "0.6590011389"},
  };
  for (const auto& [value, text] : cases) EXPECT_EQ(format_number(value), text) << value;
}

TEST(Brief, ShortensLongListsAndNamesTheirLength) {
  EXPECT_EQ(brief(json{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}), "[1, 2, 3, 4, 5, 6, 7, 8, ... (10 in all)]");
  EXPECT_EQ(brief(json{0.5, -kInf}), "[0.5, -inf]");
  EXPECT_EQ(brief(J(R"({"a": [1, 2, 3]})"), 2), "{a: [1, 2, ... (3 in all)]}");
  EXPECT_EQ(brief(json("s")), "\"s\"");
  EXPECT_EQ(brief(testing::through_channel(json{0.5, -kInf, 1.0, 2.5}), 3), "[0.5, -inf, 1, ... (4 in all)]");
}

}  // namespace
}  // namespace judge
