// Every checker against a fake runner (no processes, no compiler): each
// rule it enforces, in both directions, so that breaking a rule fails a
// test here.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "check/checker.hpp"
#include "check/registry.hpp"
#include "check/stats.hpp"
#include "package/typed_values.hpp"
#include "run/number_list.hpp"
#include "run/runner.hpp"
#include "run/wire_format.hpp"
#include "through_channel.hpp"
#include "util/errors.hpp"

namespace judge {
namespace {
using nlohmann::json;

// A runner whose replies come from a function of the request.
class FakeRunner : public Runner {
 public:
  using Reply = std::function<CallResult(const std::string& op, const json& args)>;
  explicit FakeRunner(Reply reply) : reply_(std::move(reply)) {}

  CallResult call(const Request& request, int) override {
    // The request as the harness would read it: its lists as lists.
    const std::string& frame = request.frame();
    json decoded;
    std::string problem;
    EXPECT_TRUE(decode_from_wire(std::string_view(frame).substr(4), &decoded, &problem)) << problem;
    decoded = expanded(decoded);
    ++calls;
    CallResult reply = reply_(decoded["op"], decoded["args"]);
    // As a RunnerSession does: a timed call that uses more CPU than its
    // budget is stopped there.
    if (request.timed() && request.cpu_budget_ms() > 0 && reply.cpu_ms > request.cpu_budget_ms()) {
      CallResult stopped;
      stopped.outcome = CallResult::Outcome::kTimeout;
      stopped.cpu_ms = request.cpu_budget_ms();
      stopped.wall_ms = request.cpu_budget_ms();
      stopped.detail = "no reply after the CPU budget";
      return stopped;
    }
    return reply;
  }
  void stop() override {
    ++stops;
    if (on_stop) on_stop();
  }
  int calls = 0;
  int stops = 0;
  std::function<void()> on_stop;  // what a fresh process forgets

 private:
  Reply reply_;
};

// A value as a runner's reply brings it (its lists of doubles as typed
// arrays), with the times the judge measured for the call (wall time as
// long as the CPU time unless given).
CallResult value(const json& v, double cpu_ms = 0, double wall_ms = -1) {
  CallResult call;
  call.outcome = CallResult::Outcome::kValue;
  call.value = testing::through_channel(v);
  call.cpu_ms = cpu_ms;
  call.wall_ms = wall_ms < 0 ? cpu_ms : wall_ms;
  return call;
}

CallResult thrown(const std::string& kind, const std::string& type, const std::string& what) {
  CallResult call;
  call.outcome = CallResult::Outcome::kException;
  call.exception_kind = kind;
  call.exception_type = type;
  call.what = what;
  return call;
}

// A problem with the ops these tests use, and one case of it.
struct Fixture {
  Problem problem;
  TestCase test;
  std::map<std::string, std::function<json(const json&)>> reference;  // by op
  // What the reference's runner replies to a fresh call: by default the
  // op's value from `reference`, taking reference_ms of CPU and wall time.
  std::function<CallResult(const std::string& op, const json& args)> reference_call;
  double reference_ms = 5.0;
  std::string timing_off_reason;
  int reference_calls = 0;

  explicit Fixture(const std::string& check, const std::string& op) {
    problem.slug = "demo";
    problem.memory_mb = 256;
    problem.ops = {
        {"f", {{"xs", ValueType::kDoubles}}, ValueType::kDoubles},
        {"sample", {{"logits", ValueType::kDoubles}, {"seeds", ValueType::kSeeds}}, ValueType::kInts},
        {"search", {{"n", ValueType::kInteger}}, ValueType::kAny},
        {"speculate_many", {{"model", ValueType::kAny}, {"seeds", ValueType::kSeeds}}, ValueType::kAny},
        {"accept", {{"model", ValueType::kAny}, {"seed", ValueType::kSeed}}, ValueType::kInts},
        {"timing", {{"n", ValueType::kInteger}}, ValueType::kAny},
    };
    test.name = "a_case";
    test.hidden = true;
    test.op = op;
    test.check = check;
    test.time_ms = 1000;
  }

  // Checks the case (first against the checker's own rules for cases) and
  // returns its result.
  TestResult run(Runner& learner) {
    const Checker* checker = find_checker(test.check);
    EXPECT_NE(checker, nullptr);
    std::optional<std::string> unsuitable = checker->problem_with(test, *problem.find_op(test.op));
    EXPECT_FALSE(unsuitable) << *unsuitable;
    // As the judge runs a case: its generated inputs expanded, its input as
    // written at hand.
    TestCase expanded = with_inputs_expanded(test);
    CheckContext context{
        problem, expanded, learner, [&](const std::string& op, const json& args) {
          return testing::through_channel(reference.at(op)(args));  // as the reference's runner sends it
        }};
    context.written_input = &test.input;
    context.reference_call = [&](const Request& request) {
      ++reference_calls;
      const std::string& frame = request.frame();
      json decoded;
      std::string problem;
      EXPECT_TRUE(decode_from_wire(std::string_view(frame).substr(4), &decoded, &problem)) << problem;
      decoded = judge::expanded(decoded);
      if (reference_call) return reference_call(decoded["op"], decoded["args"]);
      return value(reference.at(decoded["op"])(decoded["args"]), reference_ms);
    };
    context.timing_off_reason = timing_off_reason;
    return checker->run(context);
  }
};

// ---- values ----

TEST(ValuesChecker, AcceptsTheExpectedValueWithinTolerance) {
  Fixture f("values", "f");
  f.test.input = {{"xs", {1.0, 2.0}}};
  f.test.expect = json{0.5, 0.25};
  FakeRunner learner([](const std::string&, const json&) { return value({0.5 + 1e-12, 0.25}); });
  TestResult result = f.run(learner);
  EXPECT_EQ(result.verdict, Verdict::kAccepted) << result.message;
}

TEST(ValuesChecker, AWrongEntryIsAWrongAnswerNamingItsIndex) {
  Fixture f("values", "f");
  f.test.input = {{"xs", {1.0, 2.0}}};
  f.test.expect = json{0.5, 0.25};
  FakeRunner learner([](const std::string&, const json&) { return value({0.5, 0.3}); });
  TestResult result = f.run(learner);
  EXPECT_EQ(result.verdict, Verdict::kWrongAnswer);
  EXPECT_EQ(result.failure_kind, "value");
  EXPECT_EQ(result.returned, json({0.5, 0.3}));
  EXPECT_EQ(result.message.rfind("index 1: expected 0.25, got 0.3", 0), 0u) << result.message;
}

// What the harness reports when the learner's code wrote 0.5 over entry 1
// of its input `xs` (judge_harness/input_watch.hpp).
CallResult with_xs_changed(CallResult call) {
  call.changed_inputs =
      json::array({{{"input", "xs"}, {"matrix", false}, {"entry", {1, 0}}, {"was", 2.0}, {"now", 0.5}}});
  return call;
}

TEST(ValuesChecker, AChangedInputIsAWrongAnswerNamingItEvenWhenTheValueIsRight) {
  Fixture f("values", "f");
  f.test.input = {{"xs", {1.0, 2.0}}};
  f.test.expect = json{0.5, 0.25};
  FakeRunner learner([](const std::string&, const json&) { return with_xs_changed(value({0.5, 0.25})); });
  TestResult result = f.run(learner);
  EXPECT_EQ(result.verdict, Verdict::kWrongAnswer);
  EXPECT_EQ(result.failure_kind, "changed_input:xs");
  EXPECT_EQ(result.message,
            "changed its input 'xs', which it receives by const reference: entry 1 was 2, is now 0.5; a solution "
            "must leave its inputs as they were (copy one first to change it)");
}

TEST(ValuesChecker, AChangedInputFailsAnExpectedExceptionAndNamesAMatrixEntryOrAShape) {
  Fixture f("values", "f");
  f.test.input = {{"xs", {1.0}}};
  f.test.expects_invalid_argument = true;
  FakeRunner learner([](const std::string&, const json&) {
    CallResult call = thrown("invalid_argument", "std::invalid_argument", "bad");
    call.changed_inputs =
        json::array({{{"input", "q"}, {"matrix", true}, {"entry", {2, 1}}, {"was", 1.0}, {"now", -1.0}}});
    return call;
  });
  TestResult result = f.run(learner);
  EXPECT_EQ(result.failure_kind, "changed_input:q");
  EXPECT_EQ(result.message.rfind("changed its input 'q', which it receives by const reference: entry (2, 1) was 1, is "
                                 "now -1;",
                                 0),
            0u)
      << result.message;

  FakeRunner resized([](const std::string&, const json&) {
    CallResult call = thrown("invalid_argument", "std::invalid_argument", "bad");
    call.changed_inputs =
        json::array({{{"input", "xs"}, {"matrix", false}, {"shape_was", {1, 1}}, {"shape_now", {0, 1}}}});
    return call;
  });
  result = f.run(resized);
  EXPECT_EQ(result.message.rfind("changed its input 'xs', which it receives by const reference: its size was 1, is "
                                 "now 0;",
                                 0),
            0u)
      << result.message;
}

TEST(ValuesChecker, WithoutAStoredExpectationTheReferenceDecidesAndExpectOpPicksItsOp) {
  Fixture f("values", "f");
  f.test.input = {{"xs", {3.0}}};
  f.test.check_args = {{"expect_op", "oracle"}};
  f.reference["oracle"] = [](const json& args) { return json{args["xs"][0].get<double>() * 2}; };
  FakeRunner right([](const std::string&, const json& args) { return value({args["xs"][0].get<double>() * 2}); });
  FakeRunner wrong([](const std::string&, const json&) { return value({3.0}); });
  EXPECT_EQ(f.run(right).verdict, Verdict::kAccepted);
  EXPECT_EQ(f.run(wrong).verdict, Verdict::kWrongAnswer);
}

TEST(ValuesChecker, AnExpectedInvalidArgumentMustBeThrown) {
  Fixture f("values", "f");
  f.test.input = {{"xs", json::array()}};
  f.test.expects_invalid_argument = true;
  FakeRunner throws(
      [](const std::string&, const json&) { return thrown("invalid_argument", "std::invalid_argument", "empty"); });
  FakeRunner returns([](const std::string&, const json&) { return value(json::array()); });
  FakeRunner other([](const std::string&, const json&) { return thrown("other", "std::out_of_range", "x"); });
  EXPECT_EQ(f.run(throws).verdict, Verdict::kAccepted);
  TestResult no_throw = f.run(returns);
  EXPECT_EQ(no_throw.verdict, Verdict::kWrongAnswer);
  EXPECT_EQ(no_throw.failure_kind, "no_throw");
  TestResult wrong_type = f.run(other);
  EXPECT_EQ(wrong_type.verdict, Verdict::kWrongAnswer);
  EXPECT_EQ(wrong_type.message, "expected std::invalid_argument, but it threw std::out_of_range: x");
}

TEST(ValuesChecker, AnExceptionOnAValidInputIsARuntimeError) {
  Fixture f("values", "f");
  f.test.input = {{"xs", {1.0}}};
  f.test.expect = json{1.0};
  FakeRunner learner(
      [](const std::string&, const json&) { return thrown("invalid_argument", "std::invalid_argument", "no"); });
  TestResult result = f.run(learner);
  EXPECT_EQ(result.verdict, Verdict::kRuntimeError);
  EXPECT_EQ(result.message, "threw std::invalid_argument on a valid input: no");
}

// A value the harness cannot have written for the op's declared output
// was forged on the channel: a malformed reply, and the runner stopped
// (what it writes next would be read as the next call's reply).
TEST(ValuesChecker, AValueNotOfTheOpsTypeIsAMalformedReply) {
  Fixture f("values", "f");
  f.test.input = {{"xs", {1.0}}};
  f.test.expect = json{1.0};
  FakeRunner forger([](const std::string&, const json&) { return value("\xe2\x9c\x93 accepted"); });
  TestResult result = f.run(forger);
  EXPECT_EQ(result.verdict, Verdict::kRuntimeError);
  EXPECT_EQ(result.failure_kind, "malformed");
  EXPECT_EQ(result.message, "malformed reply to 'f': its value is a string, where the op returns a list of numbers");
  EXPECT_EQ(forger.stops, 1);
  FakeRunner honest([](const std::string&, const json&) { return value({1.0}); });
  EXPECT_EQ(f.run(honest).verdict, Verdict::kAccepted);
  EXPECT_EQ(honest.stops, 0);
}

TEST(ValuesChecker, AFailureShowsExpectedAndGotSampleOrHidden) {
  for (bool hidden : {false, true}) {
    Fixture f("values", "f");
    f.test.hidden = hidden;
    f.test.input = {{"xs", {1.0}}};
    f.test.expect = json{1.0};
    FakeRunner learner([](const std::string&, const json&) { return value({2.0}); });
    TestResult result = f.run(learner);
    EXPECT_EQ(result.details, "expected: [1]\ngot:      [2]\n") << "hidden " << hidden;
  }
}

TEST(ValuesChecker, ACaseWithItsOwnToleranceNamesIt) {
  Fixture f("values", "f");
  f.test.input = {{"xs", {1.0}}};
  f.test.expect = json{1.0};
  FakeRunner learner([](const std::string&, const json&) { return value({2.0}); });
  EXPECT_EQ(f.run(learner).message.find("tolerance"), std::string::npos) << "the problem's is said once per problem";
  f.test.tolerance = {0.01, 0};
  EXPECT_NE(f.run(learner).message.find("this case's tolerance atol 0.01 or rtol 0"), std::string::npos)
      << f.run(learner).message;
}

TEST(ValuesChecker, TimeoutsCrashesAndHarnessErrors) {
  Fixture f("values", "f");
  f.test.input = {{"xs", {1.0}}};
  f.test.expect = json{1.0};
  FakeRunner slow([](const std::string&, const json&) {
    CallResult call;
    call.outcome = CallResult::Outcome::kTimeout;
    call.detail = "no reply within 1000 ms";
    return call;
  });
  FakeRunner crash([](const std::string&, const json&) {
    CallResult call;
    call.outcome = CallResult::Outcome::kDied;
    call.signal = 11;
    call.detail = "the runner was killed by SIGSEGV";
    return call;
  });
  FakeRunner confused([](const std::string&, const json&) {
    CallResult call;
    call.outcome = CallResult::Outcome::kHarnessError;
    call.detail = "unknown operation";
    return call;
  });
  f.reference_call = [](const std::string&, const json&) {
    CallResult call;
    call.outcome = CallResult::Outcome::kHarnessError;
    call.detail = "unknown operation";
    return call;
  };
  EXPECT_EQ(f.run(slow).verdict, Verdict::kTimeLimitExceeded);
  TestResult crashed = f.run(crash);
  EXPECT_EQ(crashed.verdict, Verdict::kRuntimeError);
  EXPECT_EQ(crashed.failure_kind, "signal:11");
  EXPECT_THROW(f.run(confused), JudgeFault);
}

// A time-out says how long the reference took on the same call, in the
// details (the message, which groups repeated failures, stays the same).
TEST(ValuesChecker, ATimeOutShowsTheReferencesTimeOnTheSameCall) {
  Fixture f("values", "f");
  f.test.input = {{"xs", {1.0}}};
  f.test.expect = json{1.0};
  f.reference["f"] = [](const json&) { return json{1.0}; };
  f.reference_ms = 3.5;
  FakeRunner slow([](const std::string&, const json&) {
    CallResult call;
    call.outcome = CallResult::Outcome::kTimeout;
    call.detail = "no reply within 1000 ms";
    return call;
  });
  TestResult result = f.run(slow);
  EXPECT_EQ(result.verdict, Verdict::kTimeLimitExceeded);
  EXPECT_EQ(result.message, "no reply within 1000 ms; the runner was killed");
  EXPECT_EQ(result.details, "expected: [1]\nthe reference answered the same call in 3.5 ms\n");
  EXPECT_EQ(f.reference_calls, 1);
}

// ---- distribution and sampler_support ----

// A sampler that draws from `probs` with a generator seeded by the seed.
int draw(const std::vector<double>& probs, std::uint64_t seed) {
  std::mt19937_64 generator(seed);
  std::discrete_distribution<int> pick(probs.begin(), probs.end());
  return pick(generator);
}

Fixture sampler_fixture(const std::string& check) {
  Fixture f(check, "sample");
  f.test.input = {{"logits", {2.0, 1.0, 0.1}}};
  f.test.check_args = {{"probs_op", "probs"}};
  f.reference["probs"] = [](const json&) { return json{0.5, 0.3, 0.2}; };
  return f;
}

FakeRunner sampler(std::function<int(std::uint64_t seed)> token) {
  return FakeRunner([token](const std::string&, const json& args) {
    json tokens = json::array();
    for (const json& seed : args["seeds"]) tokens.push_back(token(seed.get<std::uint64_t>()));
    return value(tokens);
  });
}

TEST(DistributionChecker, ASamplerOfTheExpectedDistributionPasses) {
  Fixture f = sampler_fixture("distribution");
  FakeRunner learner = sampler([](std::uint64_t seed) { return draw({0.5, 0.3, 0.2}, seed); });
  TestResult result = f.run(learner);
  EXPECT_EQ(result.verdict, Verdict::kAccepted) << result.message;
}

TEST(DistributionChecker, AWrongDistributionFailsTheChiSquareTest) {
  Fixture f = sampler_fixture("distribution");
  FakeRunner learner = sampler([](std::uint64_t seed) { return draw({0.4, 0.4, 0.2}, seed); });
  TestResult result = f.run(learner);
  EXPECT_EQ(result.verdict, Verdict::kWrongAnswer);
  EXPECT_EQ(result.failure_kind, "distribution");
  EXPECT_NE(result.message.find("do not follow the expected distribution"), std::string::npos) << result.message;
  EXPECT_TRUE(result.returned.is_array());  // the histogram, for hints
}

// A token id wider than an int came from no sampler: taken as an int it
// would wrap to a token of the vocabulary (2^32 to token 0).
TEST(DistributionChecker, ATokenBeyondAnIntIsNoTokenId) {
  Fixture f = sampler_fixture("distribution");
  FakeRunner learner([](const std::string&, const json& args) {
    json tokens = json::array();
    for (const json& seed : args["seeds"]) tokens.push_back((std::int64_t{1} << 32) + draw({0.5, 0.3, 0.2}, seed));
    return value(tokens);
  });
  TestResult result = f.run(learner);
  EXPECT_EQ(result.verdict, Verdict::kWrongAnswer);
  EXPECT_EQ(result.message, "a sampler returned something other than a token id");
}

TEST(DistributionChecker, ACrashNamesASeedThatCrashesAlone) {
  Fixture f = sampler_fixture("distribution");
  // Crashes on about one seed in 500: the first request of 2000 crashes.
  auto unlucky = [](std::uint64_t seed) { return seed % 500 == 3; };
  FakeRunner learner([&](const std::string&, const json& args) {
    json tokens = json::array();
    for (const json& seed : args["seeds"]) {
      if (unlucky(seed.get<std::uint64_t>())) {
        CallResult call;
        call.outcome = CallResult::Outcome::kDied;
        call.signal = 11;
        call.detail = "the runner was killed by SIGSEGV";
        return call;
      }
      tokens.push_back(draw({0.5, 0.3, 0.2}, seed.get<std::uint64_t>()));
    }
    return value(tokens);
  });
  TestResult result = f.run(learner);
  ASSERT_EQ(result.verdict, Verdict::kRuntimeError) << result.message;
  std::size_t at = result.details.find("seed:     ");
  ASSERT_NE(at, std::string::npos) << result.details;
  std::uint64_t seed = std::stoull(result.details.substr(at + 10));
  EXPECT_TRUE(unlucky(seed)) << result.details;
  EXPECT_EQ(result.message.find("seed"), std::string::npos) << "the message stays the same for every case";
}

TEST(DistributionChecker, AGrosslyWrongSamplerStopsAtTheFirstLook) {
  Fixture f = sampler_fixture("distribution");
  std::size_t seeds_asked = 0;
  FakeRunner learner([&](const std::string&, const json& args) {
    json tokens = json::array();
    for (const json& seed : args["seeds"]) tokens.push_back(draw({0.2, 0.3, 0.5}, seed.get<std::uint64_t>()));
    seeds_asked += tokens.size();
    return value(tokens);
  });
  TestResult result = f.run(learner);
  EXPECT_EQ(result.failure_kind, "distribution");
  EXPECT_LE(seeds_asked, 2000u + 500u);  // the first batch and its repeated seeds
  EXPECT_NE(result.message.find("over the first 2000 of "), std::string::npos) << result.message;
  EXPECT_NE(result.message.find("the test stops once it rejects"), std::string::npos) << result.message;
}

TEST(DistributionChecker, ASamplerOffByTheStatedDeviationIsStillCaught) {
  // The early looks spend a twentieth of the false-reject rate; the draws
  // keep the power against a shift of 0.02.
  Fixture f = sampler_fixture("distribution");
  FakeRunner learner = sampler([](std::uint64_t seed) { return draw({0.48, 0.31, 0.21}, seed); });
  TestResult result = f.run(learner);
  EXPECT_EQ(result.failure_kind, "distribution") << result.message;
}

TEST(DistributionChecker, ACorrectSamplerStopsOnceItsDrawsShowEveryTokenWithinTheDeviation) {
  Fixture f = sampler_fixture("distribution");
  std::size_t seeds_asked = 0;
  FakeRunner learner([&](const std::string&, const json& args) {
    json tokens = json::array();
    for (const json& seed : args["seeds"]) tokens.push_back(draw({0.5, 0.3, 0.2}, seed.get<std::uint64_t>()));
    seeds_asked += tokens.size();
    return value(tokens);
  });
  TestResult result = f.run(learner);
  EXPECT_EQ(result.verdict, Verdict::kAccepted) << result.message;
  const auto planned = static_cast<std::size_t>(draws_for_sequential_test({0.5, 0.3, 0.2}, kFalseRejectRate, 2000));
  EXPECT_LT(seeds_asked, planned / 2) << "planned " << planned;
}

TEST(DistributionChecker, ATokenOfProbabilityZeroFails) {
  Fixture f = sampler_fixture("distribution");
  f.reference["probs"] = [](const json&) { return json{0.6, 0.4, 0.0}; };
  FakeRunner learner = sampler([](std::uint64_t seed) { return draw({0.5, 0.3, 0.2}, seed); });
  TestResult result = f.run(learner);
  EXPECT_EQ(result.failure_kind, "zero_probability");
  EXPECT_NE(result.message.find("whose probability is 0"), std::string::npos) << result.message;
}

TEST(DistributionChecker, ATokenOutOfRangeFails) {
  Fixture f = sampler_fixture("sampler_support");
  FakeRunner learner = sampler([](std::uint64_t) { return 3; });
  TestResult result = f.run(learner);
  EXPECT_EQ(result.failure_kind, "zero_probability");
  EXPECT_NE(result.message.find("outside [0, 3)"), std::string::npos) << result.message;
}

TEST(DistributionChecker, ASamplerThatIgnoresItsSeedFailsDeterminism) {
  Fixture f = sampler_fixture("sampler_support");
  std::uint64_t calls = 0;
  FakeRunner learner = sampler([&](std::uint64_t seed) { return draw({0.5, 0.3, 0.2}, seed + calls++); });
  TestResult result = f.run(learner);
  EXPECT_EQ(result.failure_kind, "nondeterministic");
}

TEST(DistributionChecker, SamplerSupportDoesNotJudgeTheDistribution) {
  Fixture f = sampler_fixture("sampler_support");
  FakeRunner learner = sampler([](std::uint64_t seed) { return static_cast<int>(seed % 3); });
  EXPECT_EQ(f.run(learner).verdict, Verdict::kAccepted);
}

TEST(DistributionChecker, SamplerSupportCatchesAKeptTokenThatNeverComesUp) {
  Fixture f = sampler_fixture("sampler_support");
  std::size_t seeds_asked = 0;
  FakeRunner learner([&](const std::string&, const json& args) {
    json tokens = json::array();
    for (const json& seed : args["seeds"]) tokens.push_back(draw({0.6, 0.4, 0.0}, seed.get<std::uint64_t>()));
    seeds_asked += tokens.size();
    return value(tokens);
  });
  TestResult result = f.run(learner);
  EXPECT_EQ(result.failure_kind, "distribution");
  EXPECT_NE(result.message.find("token 2 never came up in "), std::string::npos) << result.message;
  EXPECT_LT(seeds_asked, 2000u) << "a support case is sized for its question, not for a chi-square test";
  // A correct sampler passes on the same draws.
  FakeRunner correct = sampler([](std::uint64_t seed) { return draw({0.5, 0.3, 0.2}, seed); });
  EXPECT_EQ(f.run(correct).verdict, Verdict::kAccepted);
}

TEST(DistributionChecker, SamplerSupportWithStatedDrawsChecksOneWayOnly) {
  // For vocabularies too large to draw from often enough to expect every
  // kept token: only strays and determinism, on exactly the stated draws.
  Fixture f = sampler_fixture("sampler_support");
  f.test.check_args["draws"] = 30;
  std::size_t seeds_asked = 0;
  FakeRunner learner([&](const std::string&, const json& args) {
    json tokens = json::array();
    for (const json& seed : args["seeds"]) tokens.push_back(draw({0.6, 0.4, 0.0}, seed.get<std::uint64_t>()));
    seeds_asked += tokens.size();
    return value(tokens);
  });
  EXPECT_EQ(f.run(learner).verdict, Verdict::kAccepted);
  // And the repeats: a quarter of the draws, but never fewer than catch a
  // seed-ignoring sampler with probability 0.999, (0.5^2 + 0.3^2 + 0.2^2)^r
  // <= 0.001.
  const std::size_t repeats = static_cast<std::size_t>(std::ceil(std::log(1e-3) / std::log(0.38)));
  EXPECT_EQ(repeats, 8u);
  EXPECT_EQ(seeds_asked, 30u + repeats);
}

TEST(DistributionChecker, SamplerSupportWithAStatedLeastIsSizedForItBothWays) {
  // A case whose mistakes move at least `least` of the probability: every
  // token that likely must come up, on the draws that one probability
  // needs, far fewer than the 342 for 0.02.
  Fixture f = sampler_fixture("sampler_support");
  f.reference["probs"] = [](const json&) { return json{0.55, 0.3, 0.15, 0.0}; };
  f.test.check_args["least"] = 0.15;
  std::vector<std::size_t> requests;  // seeds per request: the draws, then the repeats
  auto counting = [&](std::vector<double> probs) {
    return FakeRunner([&requests, probs](const std::string&, const json& args) {
      json tokens = json::array();
      for (const json& seed : args["seeds"]) tokens.push_back(draw(probs, seed.get<std::uint64_t>()));
      requests.push_back(tokens.size());
      return value(tokens);
    });
  };
  // The draws a correct sampler misses a 0.15 token in at most once in ten
  // million runs of the case: (1 - 0.15)^n <= 1e-7 (the other two are
  // likelier) and little more.
  const std::size_t needed = static_cast<std::size_t>(std::ceil(std::log(1e-7) / std::log(0.85)));
  FakeRunner correct = counting({0.55, 0.3, 0.15, 0.0});
  EXPECT_EQ(f.run(correct).verdict, Verdict::kAccepted);
  ASSERT_EQ(requests.size(), 2u);
  const std::size_t draws = requests[0];
  EXPECT_EQ(requests[1], draws / 4);  // the repeats: more than the 8 a seed-ignoring sampler needs here
  EXPECT_GE(draws, needed);
  EXPECT_LT(draws, needed + needed / 8);
  EXPECT_LT(draws, 342u) << "sized for 0.15, not for 0.02";

  // The kept token of 0.15 dropped: it never comes up.
  FakeRunner dropped = counting({0.65, 0.35, 0.0, 0.0});
  TestResult result = f.run(dropped);
  EXPECT_EQ(result.failure_kind, "distribution");
  EXPECT_NE(result.message.find("token 2 never came up in "), std::string::npos) << result.message;
  // Its mass on a token of probability 0 instead: a stray.
  FakeRunner stray = counting({0.55, 0.3, 0.0, 0.15});
  EXPECT_EQ(f.run(stray).failure_kind, "zero_probability");
}

TEST(DistributionChecker, AFewCostlyDrawsAreRepeatedAsOftenAsAnIgnoredSeedNeeds) {
  // Two tokens of 0.45 each: about 30 draws show both, and a quarter of
  // them (8) would repeat too few seeds to catch, with probability 0.999, a
  // sampler that ignores its seed (sum p^2 = 0.415: 8 repeats).
  Fixture f = sampler_fixture("sampler_support");
  f.reference["probs"] = [](const json&) { return json{0.45, 0.45, 0.1}; };
  f.test.check_args["least"] = 0.4;
  std::vector<std::size_t> requests;
  FakeRunner correct([&](const std::string&, const json& args) {
    json tokens = json::array();
    for (const json& seed : args["seeds"]) tokens.push_back(draw({0.45, 0.45, 0.1}, seed.get<std::uint64_t>()));
    requests.push_back(tokens.size());
    return value(tokens);
  });
  EXPECT_EQ(f.run(correct).verdict, Verdict::kAccepted);
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_LT(requests[0], 40u);
  EXPECT_EQ(requests[1], static_cast<std::size_t>(repeats_to_see_an_ignored_seed({0.45, 0.45, 0.1})));
  EXPECT_GT(requests[1], requests[0] / 4);

  // A sampler that ignores its seed, drawing from one generator seeded once,
  // is caught by them.
  std::mt19937_64 generator(42);
  std::discrete_distribution<int> pick({0.45, 0.45, 0.1});
  FakeRunner ignoring = sampler([&](std::uint64_t) { return pick(generator); });
  TestResult ignored = f.run(ignoring);
  EXPECT_EQ(ignored.failure_kind, "nondeterministic") << ignored.message;
}

TEST(DistributionChecker, SamplerSupportTakesDrawsOrLeastNotBoth) {
  const Checker* checker = find_checker("sampler_support");
  Fixture f = sampler_fixture("sampler_support");
  const Operation& op = *f.problem.find_op("sample");
  f.test.check_args["least"] = 0.2;
  EXPECT_EQ(checker->problem_with(f.test, op), std::nullopt);
  f.test.check_args["draws"] = 30;
  EXPECT_EQ(checker->problem_with(f.test, op),
            "check_args.draws and check_args.least exclude each other: least sizes the draws");
  f.test.check_args.erase("draws");
  for (json bad : {json(0), json(1.5), json("0.2")}) {
    f.test.check_args["least"] = bad;
    EXPECT_EQ(checker->problem_with(f.test, op), "check_args.least must be a probability above 0 and at most 1") << bad;
  }
  Fixture full = sampler_fixture("distribution");
  full.test.check_args["least"] = 0.2;
  EXPECT_NE(find_checker("distribution")->problem_with(full.test, op), std::nullopt);
}

TEST(DistributionChecker, ARejectedCaseShape) {
  const Checker* checker = find_checker("distribution");
  Fixture f = sampler_fixture("distribution");
  f.test.check_args = json::object();
  EXPECT_EQ(checker->problem_with(f.test, *f.problem.find_op("sample")),
            "check_args.probs_op must name the op giving the probabilities");
  EXPECT_TRUE(checker->problem_with(f.test, *f.problem.find_op("f")));  // no seeds input
}

// ---- hypotheses ----

json hypothesis(std::vector<int> tokens, double log_prob) {
  return {{"tokens", tokens}, {"log_prob", log_prob}, {"score", log_prob / std::max<double>(1, tokens.size())}};
}

TEST(HypothesesChecker, TokensMustMatchAndNumbersWithinTolerance) {
  Fixture f("hypotheses", "search");
  f.test.input = {{"n", 2}};
  f.test.expect = json{hypothesis({1, 2}, -1.0), hypothesis({2}, -1.5)};
  FakeRunner same([&](const std::string&, const json&) { return value(*f.test.expect); });
  FakeRunner other_tokens([](const std::string&, const json&) {
    return value(json{hypothesis({1, 3}, -1.0), hypothesis({2}, -1.5)});
  });
  FakeRunner off_by_a_bit([](const std::string&, const json&) {
    return value(json{hypothesis({1, 2}, -1.001), hypothesis({2}, -1.5)});
  });
  FakeRunner one_missing([](const std::string&, const json&) { return value(json{hypothesis({1, 2}, -1.0)}); });
  EXPECT_EQ(f.run(same).verdict, Verdict::kAccepted);
  TestResult tokens = f.run(other_tokens);
  EXPECT_EQ(tokens.verdict, Verdict::kWrongAnswer);
  EXPECT_EQ(tokens.message.rfind("hypothesis 0: expected [1, 2]", 0), 0u) << tokens.message;
  TestResult numbers = f.run(off_by_a_bit);
  EXPECT_EQ(numbers.message.rfind("hypothesis 0 [1, 2]: log_prob expected -1, got -1.001", 0), 0u) << numbers.message;
  TestResult missing = f.run(one_missing);
  EXPECT_EQ(missing.message.rfind("expected 2 hypotheses, got 1", 0), 0u) << missing.message;
}

TEST(HypothesesChecker, SomethingThatIsNotAHypothesisIsReported) {
  Fixture f("hypotheses", "search");
  f.test.input = {{"n", 2}};
  f.test.expect = json{hypothesis({1}, -1.0)};
  FakeRunner learner([](const std::string&, const json&) { return value(json{{{"tokens", {1}}}}); });
  TestResult result = f.run(learner);
  EXPECT_EQ(result.verdict, Verdict::kWrongAnswer);
  EXPECT_EQ(result.message.rfind("hypothesis 0 is not {tokens, log_prob, score}", 0), 0u) << result.message;
}

// ---- speculative ----

struct Bigram {
  std::vector<double> start;
  std::vector<std::vector<double>> next;
  const std::vector<double>& after(int token) const { return token < 0 ? start : next[token]; }
};

const json kModel = {
    {"k", 2},
    {"draft", {{"start", {0.6, 0.4}}, {"next", {{0.5, 0.5}, {0.8, 0.2}}}}},
    {"target", {{"start", {0.3, 0.7}}, {"next", {{0.6, 0.4}, {0.1, 0.9}}}}},
};

Bigram bigram(const json& table) { return {table["start"], table["next"]}; }

// Speculative decoding with the tables of kModel until two tokens are out,
// as the harness does it; `accept_all` breaks the acceptance rule.
json decode(std::uint64_t seed, bool accept_all) {
  std::mt19937_64 generator(seed);
  std::uniform_real_distribution<double> uniform(0, 1);
  Bigram draft = bigram(kModel["draft"]), target = bigram(kModel["target"]);
  int k = kModel["k"];
  json rounds = json::array();
  std::vector<int> out;
  while (out.size() < 2) {
    int previous = out.empty() ? -1 : out.back();
    std::vector<int> drafts;
    for (int i = 0, last = previous; i < k; ++i)
      drafts.push_back(
          last = std::discrete_distribution<int>(draft.after(last).begin(), draft.after(last).end())(generator));
    std::vector<int> emitted;
    int context = previous;
    bool rejected = false;
    for (int x : drafts) {
      const std::vector<double>& p = target.after(context);
      const std::vector<double>& q = draft.after(context);
      if (accept_all || uniform(generator) < std::min(1.0, p[x] / q[x])) {
        emitted.push_back(x);
        context = x;
        continue;
      }
      std::vector<double> residual(p.size());
      for (std::size_t t = 0; t < p.size(); ++t) residual[t] = std::max(0.0, p[t] - q[t]);
      emitted.push_back(std::discrete_distribution<int>(residual.begin(), residual.end())(generator));
      rejected = true;
      break;
    }
    if (!rejected) {
      const std::vector<double>& p = target.after(context);
      emitted.push_back(std::discrete_distribution<int>(p.begin(), p.end())(generator));
    }
    out.insert(out.end(), emitted.begin(), emitted.end());
    rounds.push_back(json{drafts, emitted});
  }
  return rounds;
}

FakeRunner speculator(std::function<json(std::uint64_t)> rounds) {
  return FakeRunner([rounds](const std::string&, const json& args) {
    json replies = json::array();
    for (const json& seed : args["seeds"]) replies.push_back(rounds(seed.get<std::uint64_t>()));
    return value(replies);
  });
}

TEST(SpeculativeChecker, CorrectDecodingFollowsEveryLaw) {
  Fixture f("speculative", "speculate_many");
  f.test.input = {{"model", kModel}};
  FakeRunner learner = speculator([](std::uint64_t seed) { return decode(seed, false); });
  TestResult result = f.run(learner);
  EXPECT_EQ(result.verdict, Verdict::kAccepted) << result.message;
}

TEST(SpeculativeChecker, AcceptingEveryDraftBreaksTheLaws) {
  Fixture f("speculative", "speculate_many");
  f.test.input = {{"model", kModel}};
  std::size_t seeds_asked = 0;
  FakeRunner learner = speculator([&](std::uint64_t seed) {
    ++seeds_asked;
    return decode(seed, true);
  });
  TestResult result = f.run(learner);
  EXPECT_EQ(result.verdict, Verdict::kWrongAnswer);
  EXPECT_EQ(result.failure_kind, "distribution");
  // So wrong that the first look at the laws rejects it.
  EXPECT_LE(seeds_asked, 4000u + 300u);  // the first batch and its repeated seeds
  EXPECT_NE(result.message.find("over the first 4000 of "), std::string::npos) << result.message;
}

TEST(SpeculativeChecker, CorrectDecodingStopsOnceItsSeedsShowEveryLawWithinTheDeviation) {
  Fixture f("speculative", "speculate_many");
  f.test.input = {{"model", kModel}};
  std::size_t seeds_asked = 0;
  FakeRunner learner = speculator([&](std::uint64_t seed) {
    ++seeds_asked;
    return decode(seed, false);
  });
  TestResult result = f.run(learner);
  EXPECT_EQ(result.verdict, Verdict::kAccepted) << result.message;
  // The case is sized for its final look, tens of thousands of seeds; the
  // accept looks end it well before.
  EXPECT_GT(seeds_asked, 4000u);
  EXPECT_LT(seeds_asked, 30000u);
}

TEST(SpeculativeChecker, ARoundOfTheWrongShapeIsAStructureError) {
  Fixture f("speculative", "speculate_many");
  f.test.input = {{"model", kModel}};
  FakeRunner too_long = speculator([](std::uint64_t) { return json{json{json{0, 0}, json{0, 0, 1, 1}}}; });
  TestResult result = f.run(too_long);
  EXPECT_EQ(result.failure_kind, "structure");
  EXPECT_NE(result.message.find("a round returns 1 to K+1 = 3 tokens"), std::string::npos) << result.message;
  FakeRunner not_a_prefix = speculator([](std::uint64_t) { return json{json{json{0, 0}, json{1, 1}}}; });
  result = f.run(not_a_prefix);
  EXPECT_EQ(result.failure_kind, "structure");
  EXPECT_NE(result.message.find("token 0 is 1 but draft 0 was 0"), std::string::npos) << result.message;
}

TEST(SpeculativeChecker, ATokenBeyondAnIntIsAMalformedRound) {
  // 2^32 + 1 taken as an int would be token 1, a token of the vocabulary.
  Fixture f("speculative", "speculate_many");
  f.test.input = {{"model", kModel}};
  FakeRunner wrapping = speculator([](std::uint64_t) {
    return json{json{json{0, 0}, json{0, (std::int64_t{1} << 32) + 1}}, json{json{1, 1}, json{1}}};
  });
  TestResult result = f.run(wrapping);
  EXPECT_EQ(result.failure_kind, "structure");
  EXPECT_NE(result.message.find("the harness returned a malformed round"), std::string::npos) << result.message;
}

TEST(SpeculativeChecker, FixedAnswersMustHoldForEverySeed) {
  Fixture f("speculative", "accept");
  f.test.input = {{"model", json::object()}};
  f.test.expect = json{1, 0};
  f.test.check_args = {{"seeds", 50}};
  FakeRunner always([](const std::string&, const json&) { return value(json{1, 0}); });
  FakeRunner sometimes([](const std::string&, const json& args) {
    return value(args["seed"].get<std::uint64_t>() % 7 == 0 ? json{1} : json{1, 0});
  });
  EXPECT_EQ(f.run(always).verdict, Verdict::kAccepted);
  TestResult result = f.run(sometimes);
  EXPECT_EQ(result.verdict, Verdict::kWrongAnswer);
  EXPECT_NE(result.message.find("every seed must give it"), std::string::npos) << result.message;
}

// ---- growth ----

// A learner whose steps cost `ms_per_step(length, attempt)` of CPU time
// (and as much wall time, plus `waits_ms(length)`), and whose checksum is
// the reference's.
struct GrowthLearner {
  std::function<double(long length, int call)> ms_per_step;
  std::function<double(long length)> waits_ms = [](long) { return 0.0; };
  int calls = 0;
  std::vector<int> rounds = {};
  FakeRunner runner() {
    return FakeRunner([this](const std::string&, const json& args) {
      long length = args["length"].get<long>(), batch = args["batch"].get<long>();
      rounds.push_back(args["round"].get<int>());
      double cpu = ms_per_step(length, calls++) * static_cast<double>(batch);
      return value({{"steps", batch}, {"checksum", 1.5 * static_cast<double>(length)}}, cpu,
                   cpu + waits_ms(length) * static_cast<double>(batch));
    });
  }
};

Fixture growth_fixture() {
  Fixture f("growth", "timing");
  f.test.input = {{"n", 1}};
  f.test.check_args = {{"max_ratio", 40}, {"lengths", {64, 1024}},  {"batches", {100, 10}},
                       {"repeats", 3},    {"allowed", "O(length)"}, {"caught", "O(length^2)"}};
  f.reference["timing"] = [](const json& args) {
    return json{{"steps", args["batch"]}, {"checksum", 1.5 * args["length"].get<double>()}};
  };
  return f;
}

TEST(GrowthChecker, LinearGrowthPassesAndQuadraticFails) {
  Fixture f = growth_fixture();
  GrowthLearner linear{[](long length, int) { return 0.001 * static_cast<double>(length); }};
  FakeRunner linear_runner = linear.runner();
  EXPECT_EQ(f.run(linear_runner).verdict, Verdict::kAccepted);
  GrowthLearner quadratic{[](long length, int) { return 1e-5 * static_cast<double>(length * length); }};
  FakeRunner quadratic_runner = quadratic.runner();
  TestResult result = f.run(quadratic_runner);
  EXPECT_EQ(result.verdict, Verdict::kTimeLimitExceeded) << "every answer was right: a speed verdict";
  EXPECT_EQ(result.failure_kind, "growth");
  EXPECT_EQ(quadratic.calls, 2 + 2) << "a ratio far over the limit by CPU time is not measured again";
  EXPECT_NE(result.message.find("256.0 times as long for 16 times the length"), std::string::npos) << result.message;
  EXPECT_NE(result.message.find("median CPU time"), std::string::npos) << result.message;
}

TEST(GrowthChecker, EveryCallGetsStepsOfItsOwn) {
  Fixture f = growth_fixture();
  GrowthLearner linear{[](long length, int) { return 0.001 * static_cast<double>(length); }};
  FakeRunner runner = linear.runner();
  f.run(runner);
  // The two warm-up calls share round 0; every timed round is new, so no
  // answer can be remembered from an earlier call.
  ASSERT_EQ(linear.rounds.size(), 8u);
  EXPECT_EQ(std::vector<int>(linear.rounds.begin(), linear.rounds.begin() + 2), (std::vector<int>{0, 0}));
  EXPECT_EQ(std::vector<int>(linear.rounds.begin() + 2, linear.rounds.end()), (std::vector<int>{1, 1, 2, 2, 3, 3}));
}

TEST(GrowthChecker, ARatioJustOverTheLimitIsMeasuredAgainAndTheBestCounts) {
  Fixture f = growth_fixture();
  // 50 times for 16 times the length in the first attempt (calls 2 to 7),
  // 30 times after.
  GrowthLearner noisy{[](long length, int call) { return length == 64 ? 0.1 : (call < 8 ? 5.0 : 3.0); }};
  FakeRunner runner = noisy.runner();
  EXPECT_EQ(f.run(runner).verdict, Verdict::kAccepted);
  EXPECT_EQ(noisy.calls, 2 + 2 * 3 * 2);
}

TEST(GrowthChecker, SleepingThatGrowsWithTheLengthFailsByTheClock) {
  Fixture f = growth_fixture();
  GrowthLearner sleeper{[](long length, int) { return 0.001 * static_cast<double>(length); },
                        [](long length) { return 1e-4 * static_cast<double>(length * length); }};
  FakeRunner runner = sleeper.runner();
  TestResult result = f.run(runner);
  EXPECT_EQ(result.verdict, Verdict::kTimeLimitExceeded);
  EXPECT_NE(result.message.find("by the clock, waiting included"), std::string::npos) << result.message;
}

TEST(GrowthChecker, AFastWrongAnswerFailsAsAWrongValue) {
  Fixture f = growth_fixture();
  FakeRunner learner([](const std::string&, const json& args) {
    bool large = args["length"].get<long>() > 100;  // right only where the cache is small
    return value({{"steps", args["batch"]}, {"checksum", large ? 0.0 : 1.5 * args["length"].get<double>()}}, 1.0);
  });
  TestResult result = f.run(learner);
  EXPECT_EQ(result.verdict, Verdict::kWrongAnswer);
  EXPECT_EQ(result.failure_kind, "value");
  EXPECT_NE(result.message.find("wrong at length 1024"), std::string::npos) << result.message;
}

TEST(GrowthChecker, AReplyWithoutAChecksumIsAJudgeFault) {
  Fixture f = growth_fixture();
  FakeRunner learner([](const std::string&, const json&) { return value(json::object(), 1.0); });
  EXPECT_THROW(f.run(learner), JudgeFault);
}

TEST(GrowthChecker, CasesMustGiveGrowingLengthsAndRoundsThatSuffice) {
  Fixture f = growth_fixture();
  const Checker* checker = find_checker("growth");
  const Operation& op = *f.problem.find_op("timing");
  EXPECT_FALSE(checker->problem_with(f.test, op));
  TestCase shrinking = f.test;
  shrinking.check_args["lengths"] = {1024, 64};
  EXPECT_TRUE(checker->problem_with(shrinking, op));
  TestCase too_many = f.test;
  too_many.check_args["repeats"] = 11;  // 3 attempts of 11 rounds: more than the op has
  EXPECT_TRUE(checker->problem_with(too_many, op));
  TestCase missing = f.test;
  missing.check_args.erase("batches");
  EXPECT_TRUE(checker->problem_with(missing, op));
}

// ---- performance ----

// `n` numbers drawn uniformly from [0, 1) with `seed`, as a case file
// describes them.
json generated_numbers(std::uint64_t seed, int n = 2) {
  return read_typed_value(YAML::Load(fmt::format("{{generate: uniform, n: {}, seed: {}, low: 0, high: 1}}", n, seed)),
                          ValueType::kDoubles, "case.yaml", "xs");
}

Fixture performance_fixture() {
  Fixture f("performance", "f");
  f.test.input = {{"xs", generated_numbers(7)}};
  f.test.check_args = {{"factor", 10}, {"repetitions", 3}, {"slack_ms", 2}};
  f.reference["f"] = [](const json& args) { return args["xs"]; };
  return f;
}

TEST(PerformanceChecker, WithinTheFactorPassesAndBeyondItIsTooSlow) {
  Fixture f = performance_fixture();
  FakeRunner fast([](const std::string&, const json& args) { return value(args["xs"], 40.0); });
  EXPECT_EQ(f.run(fast).verdict, Verdict::kAccepted);
  FakeRunner slow([](const std::string&, const json& args) { return value(args["xs"], 60.0); });
  TestResult result = f.run(slow);
  EXPECT_EQ(result.verdict, Verdict::kTimeLimitExceeded);
  EXPECT_NE(result.message.find("of CPU time"), std::string::npos) << result.message;
  EXPECT_NE(result.message.find("the limit is 10x the reference plus 2 ms = 52.0 ms"), std::string::npos)
      << result.message;
  EXPECT_EQ(f.reference_calls, 8) << "the reference warms up once and is timed once per learner call, both times";
}

TEST(PerformanceChecker, WaitingCountsByTheClock) {
  Fixture f = performance_fixture();
  // Little CPU time, but 200 ms by the clock (asleep, or waiting on a
  // thread the CPU count somehow missed).
  FakeRunner sleeper([](const std::string&, const json& args) { return value(args["xs"], 1.0, 200.0); });
  TestResult result = f.run(sleeper);
  EXPECT_EQ(result.verdict, Verdict::kTimeLimitExceeded);
  EXPECT_NE(result.message.find("by the clock"), std::string::npos) << result.message;
  EXPECT_NE(result.message.find("Your CPU time was 1.0 ms"), std::string::npos) << result.message;
}

TEST(PerformanceChecker, FarOverTheLimitInMostCallsStopsEarly) {
  Fixture f = performance_fixture();
  f.test.check_args["repetitions"] = 5;
  int calls = 0;
  FakeRunner quadratic([&](const std::string&, const json& args) {
    ++calls;
    return value(args["xs"], 300.0);  // over twice the limit, within the budget of a hopeless call
  });
  TestResult result = f.run(quadratic);
  EXPECT_EQ(result.verdict, Verdict::kTimeLimitExceeded);
  EXPECT_EQ(calls, 3) << "three of five calls over twice the limit decide the median";
  EXPECT_NE(result.message.find("medians of 3 runs"), std::string::npos) << result.message;
  // Just over the limit: every call is made and the median decides.
  calls = 0;
  FakeRunner slightly([&](const std::string&, const json& args) {
    ++calls;
    return value(args["xs"], 60.0);
  });
  EXPECT_EQ(f.run(slightly).verdict, Verdict::kTimeLimitExceeded);
  EXPECT_EQ(calls, 5);
}

TEST(PerformanceChecker, FarWithinTheLimitInMostCallsStopsEarly) {
  // The limit is 10 x 5 ms + 2 ms = 52 ms; half of the factor's part is 27 ms.
  Fixture f = performance_fixture();
  f.test.check_args["repetitions"] = 5;
  FakeRunner fast([&](const std::string&, const json& args) { return value(args["xs"], 20.0); });
  TestResult result = f.run(fast);
  EXPECT_EQ(result.verdict, Verdict::kAccepted) << result.message;
  EXPECT_EQ(fast.calls, 3) << "three of five calls within half the limit decide the median";
  EXPECT_EQ(f.reference_calls, 4) << "the warm-up and one timed call before each learner call";
  // Within the limit but not by half: every call is made.
  FakeRunner near([&](const std::string&, const json& args) { return value(args["xs"], 40.0); });
  EXPECT_EQ(f.run(near).verdict, Verdict::kAccepted);
  EXPECT_EQ(near.calls, 5);
  // Fast by CPU time, slow by the clock: the clock must agree too.
  FakeRunner waits([&](const std::string&, const json& args) { return value(args["xs"], 1.0, 45.0); });
  EXPECT_EQ(f.run(waits).verdict, Verdict::kAccepted);
  EXPECT_EQ(waits.calls, 5);
}

TEST(PerformanceChecker, ACallThreeTimesOverTheLimitIsStoppedThere) {
  // The limit is 10 x 5 ms + 2 ms = 52 ms: a call is stopped after three
  // times that in CPU time, or half a second, whichever is more.
  Fixture f = performance_fixture();
  FakeRunner hopeless([&](const std::string&, const json& args) { return value(args["xs"], 1e5); });
  TestResult result = f.run(hopeless);
  EXPECT_EQ(result.verdict, Verdict::kTimeLimitExceeded);
  EXPECT_EQ(result.failure_kind, "slow");
  EXPECT_EQ(hopeless.calls, 1);
  EXPECT_NE(result.message.find("had used 500 ms of CPU time without returning, 10 times the limit"), std::string::npos)
      << result.message;
  EXPECT_NE(result.message.find("the limit is 10x the reference plus 2 ms = 52.0 ms"), std::string::npos)
      << result.message;
  // A slower reference raises the budget with the limit (10 x 40 + 2 ms,
  // three times that is 1206 ms): 700 ms calls are made, all three, and
  // the median decides.
  f.reference_ms = 40.0;
  FakeRunner slower([&](const std::string&, const json& args) { return value(args["xs"], 700.0); });
  EXPECT_EQ(f.run(slower).failure_kind, "slow");
  EXPECT_EQ(slower.calls, 3);
}

TEST(PerformanceChecker, TheMedianDecidesNotOneSlowCall) {
  Fixture f = performance_fixture();
  int call = 0;
  FakeRunner learner(
      [&](const std::string&, const json& args) { return value(args["xs"], call++ == 1 ? 500.0 : 10.0); });
  EXPECT_EQ(f.run(learner).verdict, Verdict::kAccepted);
}

TEST(PerformanceChecker, AWrongValueIsAWrongAnswerFirst) {
  Fixture f = performance_fixture();
  FakeRunner learner([](const std::string&, const json&) { return value({0.0, 0.0}, 1.0); });
  EXPECT_EQ(f.run(learner).verdict, Verdict::kWrongAnswer);
}

TEST(PerformanceChecker, EveryTimedCallIsCheckedNotOnlyTheFirst) {
  // Slow and right the first time, then fast and wrong: timed on work it
  // did not do, the median would pass.
  Fixture f = performance_fixture();
  int call = 0;
  FakeRunner cheat([&](const std::string&, const json& args) {
    return call++ == 0 ? value(args["xs"], 400.0) : value({0.0, 0.0}, 1.0);
  });
  TestResult result = f.run(cheat);
  EXPECT_EQ(result.verdict, Verdict::kWrongAnswer);
  EXPECT_EQ(result.failure_kind, "value");
  EXPECT_EQ(result.message.rfind("timed call 2 of 3, on an input of its own (the case's input drawn from other "
                                 "seeds, shown): ",
                                 0),
            0u)
      << result.message;
  // The input shown is that call's: the case's generator with another seed.
  ASSERT_TRUE(result.input.contains("xs")) << result.input.dump();
  EXPECT_EQ(result.input["xs"]["generate"], "uniform");
  EXPECT_NE(result.input["xs"]["seed"], 7);
}

TEST(PerformanceChecker, EachTimedCallGetsAnInputOfItsOwnAndTheReferenceTheSame) {
  Fixture f = performance_fixture();
  f.test.check_args["repetitions"] = 5;
  std::vector<json> learner_inputs, reference_inputs;
  f.reference_call = [&](const std::string&, const json& args) {
    reference_inputs.push_back(args["xs"]);
    return value(args["xs"], 5.0);
  };
  FakeRunner learner([&](const std::string&, const json& args) {
    learner_inputs.push_back(args["xs"]);
    return value(args["xs"], 40.0);
  });
  EXPECT_EQ(f.run(learner).verdict, Verdict::kAccepted);
  ASSERT_EQ(learner_inputs.size(), 5u);
  const json own = materialize_input(f.test.input)["xs"];
  for (std::size_t i = 0; i < learner_inputs.size(); ++i) {
    EXPECT_NE(learner_inputs[i], own) << "timed call " << i << " got the case's own input";
    EXPECT_EQ(learner_inputs[i].size(), own.size());
    for (std::size_t j = 0; j < i; ++j) EXPECT_NE(learner_inputs[i], learner_inputs[j]) << i << " and " << j;
  }
  // The warm-up on the case's own input, then each learner call's input.
  ASSERT_EQ(reference_inputs.size(), 6u);
  EXPECT_EQ(reference_inputs[0], own);
  for (std::size_t i = 0; i < learner_inputs.size(); ++i) EXPECT_EQ(reference_inputs[i + 1], learner_inputs[i]);
}

// A solution of the wrong complexity (60 ms a call where the limit is 52)
// that remembers its answers: fast on an input it has seen.
TEST(PerformanceChecker, AMemoOfEarlierInputsSavesNothing) {
  for (std::size_t remembered : {1, 8}) {
    Fixture f = performance_fixture();
    f.test.check_args["repetitions"] = 5;
    std::vector<json> memo;
    FakeRunner memoized([&](const std::string&, const json& args) {
      bool seen = std::find(memo.begin(), memo.end(), args["xs"]) != memo.end();
      if (!seen) memo.push_back(args["xs"]);
      if (memo.size() > remembered) memo.erase(memo.begin());
      return value(args["xs"], seen ? 1.0 : 60.0);
    });
    TestResult result = f.run(memoized);
    EXPECT_EQ(result.verdict, Verdict::kTimeLimitExceeded) << remembered << " remembered: " << result.message;
  }
}

TEST(PerformanceChecker, ReseedGivesEachTimedCallAModelOfItsOwn) {
  Fixture f("performance", "timing");
  f.test.input = {{"n", 3}, {"model", {{"kind", "hashed"}, {"seed", 91}, {"scale", 4.0}}}};
  f.test.check_args = {{"factor", 10}, {"repetitions", 3}, {"reseed", {"model.seed"}}};
  f.reference["timing"] = [](const json& args) { return args["model"]; };
  std::set<std::uint64_t> seeds;
  FakeRunner learner([&](const std::string&, const json& args) {
    seeds.insert(args["model"]["seed"].get<std::uint64_t>());
    EXPECT_EQ(args["model"]["kind"], "hashed");
    EXPECT_EQ(args["n"], 3);
    return value(args["model"], 40.0);
  });
  EXPECT_EQ(f.run(learner).verdict, Verdict::kAccepted);
  EXPECT_EQ(seeds.size(), 3u);
  EXPECT_EQ(seeds.count(91), 0u);
}

TEST(PerformanceChecker, AVariantWithinTheMarginIsPassedOver) {
  // The margin op's distance is the first number's: variants whose first
  // number is below 0.5 fall within the margin and are not used.
  Fixture f = performance_fixture();
  f.test.check_args["repetitions"] = 5;
  f.problem.ops.push_back({"gap", {{"xs", ValueType::kDoubles}}, ValueType::kNumber, {}});
  f.problem.margin = MarginRule{"gap", 0.5, {"f"}};
  f.reference["gap"] = [](const json& args) { return args["xs"][0]; };
  int below = 0;
  FakeRunner learner([&](const std::string&, const json& args) {
    below += args["xs"][0].get<double>() < 0.5;
    return value(args["xs"], 40.0);
  });
  EXPECT_EQ(f.run(learner).verdict, Verdict::kAccepted);
  EXPECT_EQ(learner.calls, 5);
  EXPECT_EQ(below, 0) << "a timed call got an input within the margin";
  EXPECT_GT(f.reference_calls, 5 + 1 + 5) << "no variant was passed over: the test proves nothing";
}

TEST(PerformanceChecker, ACaseWhoseInputCannotVaryIsRefused) {
  const Checker* checker = find_checker("performance");
  Fixture f = performance_fixture();
  const Operation& op = *f.problem.find_op("f");
  TestCase literal = f.test;
  literal.input = {{"xs", {1.0, 2.0}}};
  EXPECT_EQ(checker->problem_with(literal, op).value_or(""),
            "each timed call gets an input of its own, made by drawing the case's input again from other seeds: the "
            "input needs a generator with a seed (uniform or normal), or check_args.reseed naming a seed in it (e.g. "
            "[model.seed] for a model described by its seed)");
  TestCase misnamed = f.test;
  misnamed.check_args["reseed"] = {"model.seed"};
  EXPECT_EQ(checker->problem_with(misnamed, op).value_or(""),
            "check_args.reseed: 'model.seed' names no unsigned integer of the case's input");
  TestCase not_a_list = f.test;
  not_a_list.check_args["reseed"] = "model.seed";
  EXPECT_EQ(checker->problem_with(not_a_list, op).value_or(""),
            "check_args.reseed must be a list of paths of seeds in the input (e.g. [model.seed])");
  EXPECT_FALSE(checker->problem_with(f.test, op));
}

TEST(PerformanceChecker, WithTimingOffSpeedIsNotJudged) {
  Fixture f = performance_fixture();
  f.timing_off_reason = "not under --sanitize";
  int calls = 0;
  FakeRunner slow([&](const std::string&, const json& args) {
    ++calls;
    return value(args["xs"], 1e6);
  });
  TestResult result = f.run(slow);
  EXPECT_EQ(result.verdict, Verdict::kAccepted);
  EXPECT_EQ(result.message, "not under --sanitize");
  EXPECT_EQ(f.reference_calls, 0);
  EXPECT_EQ(calls, 1) << "untimed, one call checks the value; the repetitions are for timing";
}

// ---- a runner's claim that the harness failed ----

CallResult harness_error(const std::string& detail) {
  CallResult call;
  call.outcome = CallResult::Outcome::kHarnessError;
  call.detail = detail;
  return call;
}

TEST(HarnessClaims, AClaimTheReferenceDoesNotMakeIsTheLearnersRuntimeError) {
  Fixture f("values", "f");
  f.test.input = {{"xs", {1.0}}};
  f.test.expect = json{1.0};
  f.reference["f"] = [](const json& args) { return args["xs"]; };
  FakeRunner forger(
      [](const std::string&, const json&) { return harness_error("internal judge failure: please award full marks"); });
  TestResult result = f.run(forger);
  EXPECT_EQ(result.verdict, Verdict::kRuntimeError);
  EXPECT_EQ(result.failure_kind, "harness_claim");
  EXPECT_NE(result.message.find("the claim came from your code"), std::string::npos) << result.message;
  EXPECT_EQ(f.reference_calls, 1);
}

TEST(HarnessClaims, AClaimTheReferenceMakesTooIsTheJudgesFault) {
  Fixture f("values", "f");
  f.test.input = {{"xs", {1.0}}};
  f.test.expect = json{1.0};
  f.reference_call = [](const std::string&, const json&) { return harness_error("unknown operation 'f'"); };
  FakeRunner learner([](const std::string&, const json&) { return harness_error("unknown operation 'f'"); });
  EXPECT_THROW(f.run(learner), JudgeFault);
}

TEST(HarnessClaims, ARunnerThatCannotStartIsTheJudgesFault) {
  Fixture f("values", "f");
  f.test.input = {{"xs", {1.0}}};
  f.test.expect = json{1.0};
  FakeRunner learner([](const std::string&, const json&) {
    CallResult call;
    call.outcome = CallResult::Outcome::kNotStarted;
    call.detail = "could not start the runner: fork: Resource temporarily unavailable";
    return call;
  });
  EXPECT_THROW(f.run(learner), JudgeFault);
}

TEST(OversizedReplies, AreTheLearnersRuntimeError) {
  Fixture f("values", "f");
  f.test.input = {{"xs", {1.0}}};
  f.test.expect = json{1.0};
  FakeRunner learner([](const std::string&, const json&) {
    CallResult call;
    call.outcome = CallResult::Outcome::kTooLarge;
    call.detail = "the reply to 'f' was 16777216 bytes, more than any reply to this request can be";
    return call;
  });
  TestResult result = f.run(learner);
  EXPECT_EQ(result.verdict, Verdict::kRuntimeError);
  EXPECT_EQ(result.failure_kind, "reply_too_large");
  EXPECT_NE(result.message.find("16777216 bytes"), std::string::npos) << result.message;
}

// ---- sequence ----

json doubled(const json& xs) {
  json out = json::array();
  for (const json& x : xs) out.push_back(x.get<double>() * 2);
  return out;
}

// A case of `sequence` on op f (which doubles xs): `input`, then each of `then`.
Fixture sequence_fixture(json input, std::vector<json> then) {
  Fixture f("sequence", "f");
  f.test.input = std::move(input);
  f.test.then = std::move(then);
  f.reference["f"] = [](const json& args) { return doubled(args["xs"]); };
  return f;
}

TEST(SequenceChecker, IndependentCallsPassInBothOrdersAndAFreshRunner) {
  Fixture f = sequence_fixture({{"xs", {1.0, 2.0}}}, {{{"xs", {1.0, 3.0}}}, {{"xs", {1.0, 2.0}}}});
  FakeRunner learner([](const std::string&, const json& args) { return value(doubled(args["xs"])); });
  TestResult result = f.run(learner);
  EXPECT_EQ(result.verdict, Verdict::kAccepted) << result.message;
  EXPECT_EQ(learner.stops, 2);
  EXPECT_EQ(learner.calls, 3 + 3 + 2 * 3);  // in order, in order afresh, then afresh reversed and each twice
}

TEST(SequenceChecker, AMemoKeyedOnACollidingFingerprintIsStateShownInFreshRunners) {
  Fixture f = sequence_fixture({{"xs", {1.0, 2.0}}}, {{{"xs", {1.0, 3.0}}}});
  std::map<std::pair<std::size_t, double>, json> memo;  // keyed on size and first entry
  FakeRunner learner([&](const std::string&, const json& args) {
    auto key = std::make_pair(args["xs"].size(), args["xs"][0].get<double>());
    if (!memo.count(key)) memo[key] = doubled(args["xs"]);
    return value(memo[key]);
  });
  learner.on_stop = [&] { memo.clear(); };
  TestResult result = f.run(learner);
  EXPECT_EQ(result.verdict, Verdict::kWrongAnswer);
  EXPECT_EQ(result.failure_kind, "state");
  EXPECT_EQ(result.message,
            "input 1 of 2 got two answers: the answer depended on an earlier call, where it must depend on the call's "
            "own arguments alone (no memo, cache or static state kept between calls)");
  EXPECT_NE(result.details.find("first:    [2, 4] (input 1 of 2, in the case's order in a fresh runner)"),
            std::string::npos)
      << result.details;
  EXPECT_NE(result.details.find("then:     [2, 6] (input 1 of 2, in a fresh runner (the inputs in reverse order"),
            std::string::npos)
      << result.details;
  // The fresh runners' answers, in call order: what the same memo gives on
  // any machine, whatever ran before.
  EXPECT_EQ(result.returned, (json{{2, 4}, {2, 4}, {2, 6}, {2, 6}, {2, 6}, {2, 6}}));
}

TEST(SequenceChecker, AStaticFromTheFirstCallShowsBecauseTheFreshRunnersStartDifferently) {
  // The last input has another size than the first: the reversed fresh
  // runner starts with it.
  Fixture f = sequence_fixture({{"xs", {1.0, 2.0}}}, {{{"xs", {1.0, 2.0, 3.0}}}, {{"xs", {4.0, 5.0, 6.0}}}});
  std::optional<double> first_size;  // a "scale" kept from the first call
  FakeRunner learner([&](const std::string&, const json& args) {
    if (!first_size) first_size = static_cast<double>(args["xs"].size());
    json out = doubled(args["xs"]);
    for (json& x : out) x = x.get<double>() * *first_size / static_cast<double>(args["xs"].size());
    return value(out);
  });
  learner.on_stop = [&] { first_size.reset(); };
  TestResult result = f.run(learner);
  EXPECT_EQ(result.failure_kind, "state") << result.message;
  EXPECT_EQ(result.message.rfind("input 1 of 3 got two answers", 0), 0u) << result.message;
}

TEST(SequenceChecker, AComputationWrongEveryTimeIsAWrongAnswerNotState) {
  Fixture f = sequence_fixture({{"xs", {1.0, 2.0}}}, {{{"xs", {1.0, 3.0}}}});
  FakeRunner learner([](const std::string&, const json& args) {
    json out = doubled(args["xs"]);
    out[1] = out[1].get<double>() + 1;
    return value(out);
  });
  TestResult result = f.run(learner);
  EXPECT_EQ(result.verdict, Verdict::kWrongAnswer);
  EXPECT_EQ(result.failure_kind, "value");
  EXPECT_EQ(result.message,
            "input 1 of 2, in the case's order in a fresh runner: index 1: expected 4, got 5 (error 1); 1 of 2 entries "
            "wrong (the same answer every time in fresh runners)");
  EXPECT_EQ(result.returned, (json{2, 5}));
}

TEST(SequenceChecker, StateKeptFromAnEarlierCaseShowsOnlyOnTheRunnerItLeft) {
  Fixture f = sequence_fixture({{"xs", {1.0, 2.0}}}, {{{"xs", {1.0, 3.0}}}});
  // What an earlier case left: a wrong answer for the second input.
  std::map<double, json> memo = {{3.0, json{0, 0}}};
  FakeRunner learner([&](const std::string&, const json& args) {
    double key = args["xs"][1].get<double>();
    if (!memo.count(key)) memo[key] = doubled(args["xs"]);
    return value(memo[key]);
  });
  learner.on_stop = [&] { memo.clear(); };
  TestResult result = f.run(learner);
  EXPECT_EQ(result.failure_kind, "state_across_cases");
  EXPECT_EQ(result.message.rfind("input 2 of 2 got two answers: the answer depended on an earlier call of an earlier "
                                 "case",
                                 0),
            0u)
      << result.message;
  EXPECT_EQ(result.returned, (json{0, 0}));
}

TEST(SequenceChecker, ASamplerMemoKeyedBySeedDrawsATokenOfProbabilityZero) {
  Fixture f("sequence", "sample");
  f.test.input = {{"logits", {1.0, 0.0}}, {"seeds", {1, 2}}};
  f.test.then = {{{"logits", {0.0, 1.0}}, {"seeds", {1, 2}}}};
  f.test.check_args = {{"probs_op", "probs"}};
  f.problem.ops.push_back({"probs", {{"logits", ValueType::kDoubles}}, ValueType::kDoubles});
  // Only the largest logit's token is possible.
  f.reference["probs"] = [](const json& args) {
    return args["logits"][0].get<double>() > 0 ? json{1.0, 0.0} : json{0.0, 1.0};
  };
  std::map<std::uint64_t, int> memo;
  FakeRunner learner([&](const std::string&, const json& args) {
    json tokens = json::array();
    for (const json& seed : args["seeds"]) {
      int best = args["logits"][0].get<double>() > 0 ? 0 : 1;
      tokens.push_back(memo.emplace(seed.get<std::uint64_t>(), best).first->second);
    }
    return value(tokens);
  });
  TestResult result = f.run(learner);
  EXPECT_EQ(result.failure_kind, "zero_probability");
  EXPECT_EQ(result.message,
            "input 2 of 2, in the case's order on the runner as earlier cases left it: seed 1 drew token 0, which has "
            "probability 0 for this input; a draw that depends on an earlier call (a token remembered from another "
            "input) does that");
}

TEST(SequenceChecker, AGeneratorReseededOnlyOnANewSeedGivesAnotherAnswerTheSecondTime) {
  Fixture f("sequence", "accept");
  f.test.input = {{"model", {{"v", 1}}}, {"seed", 5}};
  f.test.then = {{{"model", {{"v", 2}}}, {"seed", 6}}};
  f.test.check_args = {{"repeatable", true}};
  std::uint64_t last_seed = 0, state = 0;
  FakeRunner learner([&](const std::string&, const json& args) {
    std::uint64_t seed = args["seed"].get<std::uint64_t>();
    if (seed != last_seed) last_seed = seed, state = seed;
    return value(json{static_cast<int>(state++ % 1000)});
  });
  TestResult result = f.run(learner);
  EXPECT_EQ(result.failure_kind, "nondeterministic");
  EXPECT_EQ(result.message.rfind("input 2 of 2 gave [6] and then [7]: the answer depended on an earlier call", 0), 0u)
      << result.message;
}

TEST(SequenceChecker, ARejectedCaseShape) {
  const Checker* checker = find_checker("sequence");
  Fixture f = sequence_fixture({{"xs", {1.0}}}, {});
  EXPECT_EQ(checker->problem_with(f.test, *f.problem.find_op("f")),
            "check 'sequence' needs `then`: the inputs of the calls after `input`");
  f.test.then = {{{"xs", {2.0}}}};
  f.test.check_args = {{"probs_op", "probs"}, {"repeatable", true}};
  EXPECT_EQ(checker->problem_with(f.test, *f.problem.find_op("f")),
            "check_args.probs_op and check_args.repeatable exclude each other");
}

}  // namespace
}  // namespace judge
