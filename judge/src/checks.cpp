// The checker registry, the shared handling of failed calls, and the
// default checker: `values`.
#include "checks.hpp"

#include <fmt/format.h>
#include <map>

#include "compare.hpp"

namespace judge {
namespace {
const std::map<std::string, const Checker*>& registry() {
  static const std::map<std::string, const Checker*> checkers = [] {
    std::map<std::string, const Checker*> all;
    for (const auto& [name, checker] : builtin_checkers()) all[name] = checker;
    return all;
  }();
  return checkers;
}

std::string sample_details(const TestCase& test, const nlohmann::json& expected, const nlohmann::json* got) {
  std::string details = "input:    " + brief(test.input, 16) + "\n";
  details += "expected: " + brief(expected, 16) + "\n";
  if (got) details += "got:      " + brief(*got, 16) + "\n";
  return details;
}

// Compares the op's return value with the expectation (stored, or the
// reference's), or checks that it threw std::invalid_argument.
class ValuesChecker : public Checker {
 public:
  bool validate(const TestCase& test, const Operation&, std::string* error) const override {
    for (const auto& [key, value] : test.check_args.items()) {
      if (key != "expect_op") return *error = "check 'values' takes only check_args.expect_op, not '" + key + "'", false;
      if (!value.is_string()) return *error = "check_args.expect_op must name an op", false;
    }
    return true;
  }

  TestResult run(CheckContext& context) const override {
    const TestCase& test = context.test;
    TestResult result = start_result(test);
    CallResult call = context.learner.call(test.op, test.input, test.time_ms);
    result.time_ms = result.slowest_call_ms = call.wall_ms;
    result.output = call.output;
    if (verdict_for_unusual_call(call, test, context.problem.memory_mb, &result)) {
      if (!test.hidden && result.verdict != Verdict::kAccepted)
        result.details = sample_details(test, test.expects_invalid_argument ? nlohmann::json("std::invalid_argument")
                                                                            : expected(context), nullptr);
      return result;
    }
    if (test.expects_invalid_argument) {
      result.verdict = Verdict::kWrongAnswer;
      result.failure_kind = "no_throw";
      result.returned = call.value;
      result.message = fmt::format("expected std::invalid_argument, but it returned {}", brief(call.value));
      if (!test.hidden) result.details = sample_details(test, "std::invalid_argument", &call.value);
      return result;
    }
    nlohmann::json want = expected(context);
    const Operation* op = context.problem.find_op(test.op);
    if (auto mismatch = compare_output(op->output, want, call.value, test.tolerance)) {
      result.verdict = Verdict::kWrongAnswer;
      result.message = *mismatch;
      result.failure_kind = "value";
      result.returned = call.value;
      if (!test.hidden) result.details = sample_details(test, want, &call.value);
    }
    return result;
  }

 private:
  // A stored expectation, else the reference's answer: from the same op, or
  // from `check_args.expect_op` (a trusted oracle op in the harness, e.g.
  // attention recomputed from scratch to check a cached implementation).
  static nlohmann::json expected(CheckContext& context) {
    if (context.test.expect) return *context.test.expect;
    std::string op = context.test.check_args.value("expect_op", context.test.op);
    return context.reference(op, context.test.input);
  }
};

}  // namespace

const Checker& values_checker() {
  static const ValuesChecker checker;
  return checker;
}

const Checker* find_checker(const std::string& name) {
  auto found = registry().find(name);
  return found == registry().end() ? nullptr : found->second;
}

std::string checker_names() {
  std::string names;
  for (const auto& entry : registry()) names += (names.empty() ? "" : ", ") + entry.first;
  return names;
}

TestResult start_result(const TestCase& test) {
  TestResult result;
  result.name = test.name;
  result.hidden = test.hidden;
  return result;
}

bool verdict_for_unusual_call(const CallResult& call, const TestCase& test, int memory_mb, TestResult* result) {
  using Outcome = CallResult::Outcome;
  switch (call.outcome) {
    case Outcome::kValue: return false;
    case Outcome::kHarnessError:
      throw JudgeFault{fmt::format("case '{}': the harness could not run the request: {}", test.name, call.detail)};
    case Outcome::kTimeout:
      result->failure_kind = "timeout";
      result->verdict = Verdict::kTimeLimitExceeded;
      result->message = fmt::format("{} (the time limit of this case); the runner was killed", call.detail);
      return true;
    case Outcome::kDied:
      result->failure_kind = call.signal ? fmt::format("signal:{}", call.signal) : "died";
      if (call.killed_by_cpu_limit) {
        result->verdict = Verdict::kTimeLimitExceeded;
        result->message = "the runner used up its CPU time limit and was killed";
      } else if (call.out_of_memory) {
        result->verdict = Verdict::kMemoryLimitExceeded;
        result->message = fmt::format("the kernel killed the runner at its memory limit (the problem allows {} MiB)", memory_mb);
      } else if (call.signal != 0 && call.peak_memory_kb >= static_cast<long>(memory_mb) * 1024 * 9 / 10) {
        // Killed while at the memory limit: the allocation failed and the code
        // went on with a null pointer, or the kernel killed it.
        result->verdict = Verdict::kMemoryLimitExceeded;
        result->message = fmt::format("{} after using {} MiB of the {} MiB limit", call.detail,
                                      call.peak_memory_kb / 1024, memory_mb);
      } else {
        result->verdict = Verdict::kRuntimeError;
        result->message = call.detail;
      }
      return true;
    case Outcome::kMalformed:
      result->failure_kind = "malformed";
      result->verdict = Verdict::kRuntimeError;
      result->message = call.detail;
      return true;
    case Outcome::kException:
      result->failure_kind = "exception:" + call.exception_type;
      if (call.exception_kind == "bad_alloc") {
        result->verdict = Verdict::kMemoryLimitExceeded;
        result->message = fmt::format("{} thrown: out of memory under the {} MiB limit", call.exception_type, memory_mb);
        return true;
      }
      if (test.expects_invalid_argument) {
        if (call.exception_kind == "invalid_argument") {
          result->failure_kind.clear();
          result->verdict = Verdict::kAccepted;
          return true;
        }
        result->verdict = Verdict::kWrongAnswer;
        result->message = fmt::format("expected std::invalid_argument, but it threw {}{}", call.exception_type,
                                      call.what.empty() ? "" : ": " + call.what);
        return true;
      }
      result->verdict = Verdict::kRuntimeError;
      if (call.exception_kind == "invalid_argument")
        result->message = fmt::format("threw {} on a valid input: {}", call.exception_type, call.what);
      else
        result->message = fmt::format("uncaught exception {}{}", call.exception_type,
                                      call.what.empty() ? "" : ": " + call.what);
      return true;
  }
  return false;
}

std::string verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::kAccepted: return "accepted";
    case Verdict::kWrongAnswer: return "wrong_answer";
    case Verdict::kRuntimeError: return "runtime_error";
    case Verdict::kTimeLimitExceeded: return "time_limit_exceeded";
    case Verdict::kMemoryLimitExceeded: return "memory_limit_exceeded";
    case Verdict::kCompileError: return "compile_error";
  }
  return "?";
}

}  // namespace judge
