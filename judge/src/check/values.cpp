// The default checker, `values`: the op's return value equals the
// expectation (stored, or the reference's) within the case's tolerance, or
// the call throws std::invalid_argument when the case says so.
#include <fmt/format.h>

#include "check/checker.hpp"
#include "check/compare.hpp"
#include "check/registry.hpp"

namespace judge {
namespace {
std::string sample_details(const TestCase& test, const nlohmann::json& expected, const nlohmann::json* got) {
  std::string details = "input:    " + brief(test.input, 16) + "\n";
  details += "expected: " + brief(expected, 16) + "\n";
  if (got) details += "got:      " + brief(*got, 16) + "\n";
  return details;
}

class ValuesChecker : public Checker {
 public:
  std::optional<std::string> problem_with(const TestCase& test, const Operation&) const override {
    for (const auto& [key, value] : test.check_args.items()) {
      if (key != "expect_op") return "check 'values' takes only check_args.expect_op, not '" + key + "'";
      if (!value.is_string()) return "check_args.expect_op must name an op";
    }
    return std::nullopt;
  }

  TestResult run(CheckContext& context) const override {
    const TestCase& test = context.test;
    TestResult result = start_result(test);
    const Request request(test.op, test.input);
    CallResult call = call_learner(context, request, &result);
    if (verdict_for_unusual_call(call, context, request, &result)) {
      if (!test.hidden && result.verdict != Verdict::kAccepted)
        result.details = sample_details(
            test, test.expects_invalid_argument ? nlohmann::json("std::invalid_argument") : expected_value(context),
            nullptr);
      return result;
    }
    if (test.expects_invalid_argument) {
      result.returned = call.value;
      fail(&result, fmt::format("expected std::invalid_argument, but it returned {}", brief(call.value)), "no_throw");
      if (!test.hidden) result.details = sample_details(test, "std::invalid_argument", &call.value);
      return result;
    }
    nlohmann::json want = expected_value(context);
    const Operation* op = context.problem.find_op(test.op);
    if (auto mismatch = compare_output(op->output, want, call.value, test.tolerance)) {
      result.returned = call.value;
      fail(&result, *mismatch, "value");
      if (!test.hidden) result.details = sample_details(test, want, &call.value);
    }
    return result;
  }
};
}  // namespace

const Checker& values_checker() {
  static const ValuesChecker checker;
  return checker;
}

}  // namespace judge
