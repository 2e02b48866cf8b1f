// The default checker, `values`: the op's return value equals the
// expectation (stored, or the reference's) within the case's tolerance, or
// the call throws std::invalid_argument when the case says so.
#include <fmt/format.h>

#include "check/checker.hpp"
#include "check/compare.hpp"
#include "check/registry.hpp"
#include "run/number_list.hpp"

namespace judge {
namespace {
constexpr const char* kThrows = "throws std::invalid_argument";

std::string expected_and_got(const std::string& expected, const nlohmann::json* got) {
  std::string details = "expected: " + expected + "\n";
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
      if (result.verdict != Verdict::kAccepted)  // what was expected, then what the call's failure said
        result.details =
            expected_and_got(test.expects_invalid_argument ? kThrows : brief(expected_value(context), 16), nullptr) +
            result.details;
      return result;
    }
    if (test.expects_invalid_argument) {
      result.returned = expanded(call.value);
      fail(&result, fmt::format("expected std::invalid_argument, but it returned {}", brief(call.value)), "no_throw");
      result.details = expected_and_got(kThrows, &call.value);
      return result;
    }
    nlohmann::json want = expected_value(context);
    const Operation* op = context.problem.find_op(test.op);
    if (auto mismatch = compare_output(op->output, want, call.value, test.tolerance)) {
      result.returned = expanded(call.value);
      fail(&result, with_case_tolerance(context, *mismatch), "value");
      result.details = expected_and_got(brief(want, 16), &call.value);
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
