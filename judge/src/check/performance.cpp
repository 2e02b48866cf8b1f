// `performance`: the learner's op must be correct on a large input and take
// at most `factor` times the reference's CPU time (plus `slack_ms`, so tiny
// timings do not decide anything). Both are measured inside their runners
// (CPU time of the call alone), interleaved learner/reference so machine
// noise hits both, over `repetitions` calls each; medians are compared.
#include <fmt/format.h>

#include <algorithm>

#include "check/checker.hpp"
#include "check/compare.hpp"
#include "check/registry.hpp"
#include "check/stats.hpp"

namespace judge {
namespace {
class PerformanceChecker : public Checker {
 public:
  std::optional<std::string> problem_with(const TestCase& test, const Operation&) const override {
    if (test.expect || test.expects_invalid_argument)
      return "a performance check takes neither 'expect' nor 'throws' (it compares with the reference)";
    for (const auto& [key, value] : test.check_args.items()) {
      bool ok =
          (key == "factor" && value.is_number() && value.get<double>() >= 1) ||
          (key == "repetitions" && value.is_number_integer() && value.get<int>() >= 1 && value.get<int>() <= 25) ||
          (key == "slack_ms" && value.is_number() && value.get<double>() >= 0);
      if (!ok)
        return fmt::format("check_args.{}: expected factor (>= 1), repetitions (1 to 25) or slack_ms (>= 0)", key);
    }
    if (!test.check_args.contains("factor")) return "check_args.factor is required (e.g. 10)";
    return std::nullopt;
  }

  bool measures_speed() const override { return true; }

  TestResult run(CheckContext& context) const override {
    const TestCase& test = context.test;
    TestResult result = start_result(test);
    double factor = test.check_args["factor"].get<double>();
    int repetitions = test.check_args.value("repetitions", 5);
    double slack_ms = test.check_args.value("slack_ms", 2.0);
    const Operation* op = context.problem.find_op(test.op);
    nlohmann::json want = context.reference(test.op, test.input);
    const Request request(test.op, test.input);  // the same bytes for every timed call
    std::vector<double> learner_ms, reference_ms;
    for (int i = 0; i < repetitions; ++i) {
      CallResult call = context.learner.call(request, test.time_ms);
      account_call(call, &result);
      if (verdict_for_unusual_call(call, test, context.problem.memory_mb, &result)) return result;
      if (i == 0) {
        if (auto mismatch = compare_output(op->output, want, call.value, test.tolerance)) {
          result.returned = call.value;
          return fail(&result, *mismatch, "value");
        }
      }
      learner_ms.push_back(call.cpu_ms);
      if (context.reference_cpu_ms) reference_ms.push_back(context.reference_cpu_ms(request));
    }
    if (reference_ms.empty()) {
      result.message = context.timing_off_reason;
      return result;
    }
    double learner = median(learner_ms), reference = median(reference_ms);
    double limit = factor * reference + slack_ms;
    if (learner > limit) {
      result.verdict = Verdict::kTimeLimitExceeded;
      result.failure_kind = "slow";
      result.message = fmt::format(
          "too slow: your {} took {:.1f} ms, the reference {:.1f} ms (median CPU time of {} runs each); the limit is "
          "{:g}x the reference plus {:g} ms = {:.1f} ms. Look for work that grows faster than the input.",
          test.op, learner, reference, repetitions, factor, slack_ms, limit);
    }
    return result;
  }
};
}  // namespace

const Checker& performance_checker() {
  static const PerformanceChecker checker;
  return checker;
}

}  // namespace judge
