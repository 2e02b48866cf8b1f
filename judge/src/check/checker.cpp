// The handling of failed calls that every checker shares.
#include "check/checker.hpp"

#include "check/compare.hpp"

#include <fmt/format.h>
#include <algorithm>

#include "package/typed_values.hpp"
#include "run/reply.hpp"
#include "sandbox/machine_load.hpp"
#include "util/errors.hpp"
#include "util/fingerprint.hpp"
#include "util/text.hpp"

namespace judge {
namespace {
void died(const CallResult& call, int memory_mb, TestResult* result) {
  result->failure_kind = call.signal ? fmt::format("signal:{}", call.signal) : "died";
  if (call.killed_by_cpu_limit) {
    result->verdict = Verdict::kTimeLimitExceeded;
    result->message = "the runner used up its CPU time limit and was killed";
  } else if (call.out_of_memory) {
    result->verdict = Verdict::kMemoryLimitExceeded;
    result->message =
        fmt::format("the kernel killed the runner at its memory limit (the problem allows {} MiB)", memory_mb);
  } else if (call.signal != 0 && call.peak_memory_kb >= static_cast<long>(memory_mb) * 1024 * 9 / 10) {
    // Killed while at the memory limit: the allocation failed and the code
    // went on with a null pointer, or the kernel killed it.
    result->verdict = Verdict::kMemoryLimitExceeded;
    result->message =
        fmt::format("{} after using {} MiB of the {} MiB limit", call.detail, call.peak_memory_kb / 1024, memory_mb);
  } else {
    result->verdict = Verdict::kRuntimeError;
    result->message = call.detail;
  }
}

// "entry 3 was 1.5, is now 0.2": what the harness saw change in an input.
std::string describe_input_change(const nlohmann::json& fact) {
  try {
    const bool matrix = fact.value("matrix", false);
    if (fact.contains("shape_was")) {
      const nlohmann::json& was = fact.at("shape_was");
      const nlohmann::json& now = fact.at("shape_now");
      if (matrix)
        return fmt::format("its shape was {} x {}, is now {} x {}", was.at(0).get<long>(), was.at(1).get<long>(),
                           now.at(0).get<long>(), now.at(1).get<long>());
      return fmt::format("its size was {}, is now {}", was.at(0).get<long>(), now.at(0).get<long>());
    }
    const nlohmann::json& entry = fact.at("entry");
    std::string where = matrix ? fmt::format("entry ({}, {})", entry.at(0).get<long>(), entry.at(1).get<long>())
                               : fmt::format("entry {}", entry.at(0).get<long>());
    return fmt::format("{} was {}, is now {}", where, format_number(fact.at("was").get<double>()),
                       format_number(fact.at("now").get<double>()));
  } catch (const nlohmann::json::exception&) {
    return "it changed";
  }
}

// The learner's code changed an input it receives by const reference (the
// harness reports what it saw; the contract forbids it whatever the answer).
void changed_input(const CallResult& call, TestResult* result) {
  const nlohmann::json& fact = call.changed_inputs.at(0);
  std::string name =
      fact.is_object() && fact.contains("input") && fact["input"].is_string() ? fact["input"].get<std::string>() : "?";
  result->failure_kind = "changed_input:" + name;
  result->verdict = Verdict::kWrongAnswer;
  result->message = fmt::format(
      "changed its input '{}', which it receives by const reference: {}; a solution must leave its inputs as they "
      "were (copy one first to change it)",
      name, describe_input_change(fact));
}

void threw(const CallResult& call, const TestCase& test, int memory_mb, TestResult* result) {
  result->failure_kind = "exception:" + call.exception_type;
  std::string what = call.what.empty() ? "" : ": " + call.what;
  if (call.exception_kind == "bad_alloc") {
    result->verdict = Verdict::kMemoryLimitExceeded;
    result->message = fmt::format("{} thrown: out of memory under the {} MiB limit", call.exception_type, memory_mb);
  } else if (test.expects_invalid_argument && call.exception_kind == "invalid_argument") {
    result->failure_kind.clear();
    result->verdict = Verdict::kAccepted;
  } else if (test.expects_invalid_argument) {
    result->verdict = Verdict::kWrongAnswer;
    result->message = fmt::format("expected std::invalid_argument, but it threw {}{}", call.exception_type, what);
  } else if (call.exception_kind == "invalid_argument") {
    result->verdict = Verdict::kRuntimeError;
    result->message = fmt::format("threw {} on a valid input: {}", call.exception_type, call.what);
  } else {
    result->verdict = Verdict::kRuntimeError;
    result->message = fmt::format("uncaught exception {}{}", call.exception_type, what);
  }
}
}  // namespace

TestResult start_result(const TestCase& test) {
  TestResult result;
  result.name = test.name;
  result.hidden = test.hidden;
  return result;
}

void describe_failed_case(const TestCase& test, TestResult* result) {
  if (result->verdict == Verdict::kAccepted) return;
  result->note = test.note;
  if (result->input.is_null()) result->input = input_as_written(test.input);  // unless the check named the call's
}

std::string with_case_tolerance(const CheckContext& context, std::string mismatch) {
  if (context.test.tolerance == context.problem.tolerance) return mismatch;
  return mismatch + "; this case's " + tolerance_text(context.test.tolerance);
}

TestResult& fail(TestResult* result, std::string message, std::string kind) {
  result->verdict = Verdict::kWrongAnswer;
  result->message = std::move(message);
  result->failure_kind = std::move(kind);
  return *result;
}

nlohmann::json expected_value(CheckContext& context) {
  if (context.test.expect) return *context.test.expect;
  std::string op = context.test.check_args.value("expect_op", context.test.op);
  return context.reference(op, context.test.input);
}

std::vector<std::uint64_t> case_seeds(const CheckContext& context, std::size_t count) {
  SplitMix64 stream(fnv1a_64(context.problem.slug + "/" + context.test.name));
  std::vector<std::uint64_t> seeds(count);
  for (std::uint64_t& seed : seeds) seed = stream.next();
  return seeds;
}

void account_call(const CallResult& call, TestResult* result) {
  result->time_ms += call.wall_ms;
  result->cpu_ms += call.cpu_ms;
  result->slowest_call_ms = std::max(result->slowest_call_ms, call.wall_ms);
  if (result->output.empty()) result->output = call.output;
}

namespace {
// A runner said the harness could not run a request. The learner's code
// runs in the runner's process and can say it too; the reference's runner,
// asked the same, tells the judge's fault from the learner's forgery.
void harness_error(const CallResult& call, CheckContext& context, const Request& request, TestResult* result) {
  CallResult reference = context.reference_call ? context.reference_call(request) : call;
  if (reference.outcome == CallResult::Outcome::kHarnessError)
    throw JudgeFault{
        fmt::format("case '{}': the harness could not run the request: {}", context.test.name, reference.detail)};
  result->failure_kind = "harness_claim";
  result->verdict = Verdict::kRuntimeError;
  result->message = fmt::format(
      "the runner replied that the harness could not run the request ({}), but the reference's runner ran the same "
      "request: the claim came from your code (a thrown judge_harness::BadRequest or a forged reply)",
      cap_characters(call.detail, 200, "..."));
}

// A call that never replied. Beside it, how long the reference took on the
// same request: a few milliseconds against a limit of seconds says the
// code is stuck or far too slow, not that the limit is tight.
void timed_out(const CallResult& call, CheckContext& context, const Request& request, TestResult* result) {
  result->failure_kind = "timeout";
  result->verdict = Verdict::kTimeLimitExceeded;
  result->message = fmt::format("{}; the runner was killed", call.detail);
  if (!context.reference_call) return;
  CallResult reference = context.reference_call(request);
  if (reference.outcome != CallResult::Outcome::kValue && reference.outcome != CallResult::Outcome::kException) return;
  result->details += fmt::format("the reference answered the same call in {:.1f} ms\n", reference.wall_ms);
}
}  // namespace

CallResult call_learner(CheckContext& context, const Request& request, TestResult* result) {
  CallResult call = context.learner.call(request, context.test.time_ms);
  account_call(call, result);
  const Operation* op = context.problem.find_op(request.op());
  if (call.outcome != CallResult::Outcome::kValue || !op) return call;
  if (std::optional<std::string> problem = value_type_problem(op->output, call.value)) {
    // The harness returns every value as its op's type: this one was forged.
    call.outcome = CallResult::Outcome::kMalformed;
    call.detail = malformed_reply(*problem, request.op());
    call.value = nullptr;
    context.learner.stop();
  }
  return call;
}

void name_failing_seed(CheckContext& context, const std::string& key, const std::vector<std::uint64_t>& seeds,
                       TestResult* result) {
  const std::string& kind = result->failure_kind;
  bool crashed = kind.rfind("signal:", 0) == 0 || kind == "died" || kind.rfind("exception:", 0) == 0;
  if (!crashed || seeds.empty()) return;
  auto fails = [&](std::vector<std::uint64_t> some) {
    nlohmann::json args = context.test.input;
    args[key] = std::move(some);
    CallResult call = context.learner.call(Request(context.test.op, args), context.test.time_ms);
    return call.outcome == CallResult::Outcome::kDied || call.outcome == CallResult::Outcome::kException;
  };
  std::vector<std::uint64_t> suspects = seeds;
  while (suspects.size() > 1) {
    std::vector<std::uint64_t> first(suspects.begin(), suspects.begin() + static_cast<long>(suspects.size() / 2));
    if (fails(first))
      suspects = std::move(first);
    else
      suspects.erase(suspects.begin(), suspects.begin() + static_cast<long>(suspects.size() / 2));
  }
  if (fails(suspects))
    result->details += fmt::format("seed:     {} (this seed alone fails the same way)\n", suspects.front());
}

bool verdict_for_unusual_call(const CallResult& call, CheckContext& context, const Request& request,
                              TestResult* result) {
  using Outcome = CallResult::Outcome;
  const TestCase& test = context.test;
  const int memory_mb = context.problem.memory_mb;
  const bool reached_the_end = call.outcome == Outcome::kValue || call.outcome == Outcome::kException;
  if (reached_the_end && !call.changed_inputs.empty()) {
    changed_input(call, result);
    return true;
  }
  switch (call.outcome) {
    case Outcome::kValue: return false;
    case Outcome::kHarnessError: harness_error(call, context, request, result); return true;
    case Outcome::kTimeout: timed_out(call, context, request, result); return true;
    case Outcome::kDied: died(call, memory_mb, result); return true;
    case Outcome::kMalformed:
      result->failure_kind = "malformed";
      result->verdict = Verdict::kRuntimeError;
      result->message = call.detail;
      return true;
    case Outcome::kTooLarge:
      result->failure_kind = "reply_too_large";
      result->verdict = Verdict::kRuntimeError;
      result->message = call.detail;
      return true;
    case Outcome::kNotStarted: throw JudgeFault{fmt::format("case '{}': {}", test.name, call.detail)};
    case Outcome::kStarved:
      throw JudgeFault{fmt::format(
          "case '{}': the machine is too busy to judge fairly: {}, twice (the second time alone); {}. Judge again "
          "with fewer jobs, or on a quieter machine",
          test.name, call.detail, describe_machine_load())};
    case Outcome::kException: threw(call, test, memory_mb, result); return true;
  }
  return false;
}

}  // namespace judge
