// Checkers decide a case's verdict from what the learner's runner returned.
// Each is registered under the name a case gives in `check:` (registry.hpp).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "package/problem.hpp"
#include "package/verdict.hpp"
#include "run/runner.hpp"

namespace judge {

struct CheckContext {
  const Problem& problem;
  const TestCase& test;  // with its generated inputs expanded
  Runner& learner;
  // Runs `op` on the reference solution and returns its value; throws
  // JudgeFault when the reference does not return one.
  std::function<nlohmann::json(const std::string& op, const nlohmann::json& args)> reference;
  // Sends `request` to the reference's runner afresh (never memoized) and
  // returns what came back, with its time: for performance checks, and to
  // check a runner's claim that the harness could not run a request. When
  // empty, such a claim is believed (a judge fault).
  std::function<CallResult(const Request& request)> reference_call = {};
  // Why speed is not compared with the reference in this run, when it is not
  // (a sanitized learner against an unsanitized reference would be unfair).
  std::string timing_off_reason = {};
  // The case's input as its file gives it (generators as descriptions), for
  // a check that derives inputs of its own from it (the timed calls of a
  // performance case); null when test.input is that already.
  const nlohmann::json* written_input = nullptr;
  bool timing_on() const { return reference_call && timing_off_reason.empty(); }
};

// What judging a case costs, decided by its check rather than by measured
// times, so that the same solution is judged and hinted the same way on a
// busy machine.
enum class CheckCost {
  kFewCalls,   // one call or a handful: milliseconds
  kManyCalls,  // a sampler's statistics: thousands of calls, up to seconds
  kTimed,      // times the learner against the reference: must run alone
};

class Checker {
 public:
  virtual ~Checker() = default;
  // Inputs of the op that the checker fills in itself (e.g. the seeds of a
  // distribution test); a case must not give them.
  virtual std::vector<std::string> supplied_inputs(const TestCase&) const { return {}; }
  // Whether a case of this check lists more calls under `then`.
  virtual bool takes_then() const { return false; }
  // Why a loaded case does not suit this checker; nullopt when it does.
  virtual std::optional<std::string> problem_with(const TestCase&, const Operation&) const { return std::nullopt; }
  virtual TestResult run(CheckContext& context) const = 0;
  // kTimed for checkers that time the learner's code: their cases run
  // alone, after the others, so no other runner shares the machine with them.
  virtual CheckCost cost() const { return CheckCost::kFewCalls; }
};

// Sends `request` to the learner's runner within the case's time limit,
// and accounts the call into *result (time, slowest call, output). A value
// that is not of the type the op declares (run/reply.hpp) comes back as a
// malformed call, and the runner is stopped.
CallResult call_learner(CheckContext& context, const Request& request, TestResult* result);

// The verdict of a call that did not return a value the checker can judge:
// time limit, crash, malformed reply, an exception (expected or not), or a
// value or exception after the learner's code changed an input it receives
// by const reference (wrong_answer, failure kind "changed_input:NAME").
// Returns false when `call` holds a value and the checker must decide. A
// claim that the harness could not run `request` is the judge's fault
// (JudgeFault) only when the reference's runner makes the same claim on the
// same request; otherwise the learner's code made it: runtime_error.
// After a request of many seeds (input `key`) crashed or threw: finds, by
// halving the seeds, one that fails alone, and names it in the details so
// that the learner can replay it. About log2(seeds) extra calls.
void name_failing_seed(CheckContext& context, const std::string& key, const std::vector<std::uint64_t>& seeds,
                       TestResult* result);

bool verdict_for_unusual_call(const CallResult& call, CheckContext& context, const Request& request,
                              TestResult* result);

// A TestResult for `test` with its name and visibility filled in.
TestResult start_result(const TestCase& test);
// For a failed `result` of `test`: the case's note and its input as
// written (generators as generators), so that a learner sees what failed;
// an input the check already set (that of the call that failed, when it
// was not the case's own) is kept.
void describe_failed_case(const TestCase& test, TestResult* result);
// A value mismatch, with the case's tolerance named when it is not the
// problem's (which the report gives once).
std::string with_case_tolerance(const CheckContext& context, std::string mismatch);

// Marks `result` a wrong answer of `kind` with `message`; returns it.
TestResult& fail(TestResult* result, std::string message, std::string kind);

// The expectation of a values-like case: its stored `expect`, else the
// reference's answer, from the same op or from `check_args.expect_op` (a
// trusted oracle op in the harness, e.g. attention recomputed from scratch
// to check a cached implementation).
nlohmann::json expected_value(CheckContext& context);

// `count` well-mixed seeds for the case: a splitmix64 stream started from
// a hash of the problem's and the case's names, so every run, machine and
// solution draws with the same seeds.
std::vector<std::uint64_t> case_seeds(const CheckContext& context, std::size_t count);

// Accumulates one call into a case's result: time, slowest call, the first
// output printed.
void account_call(const CallResult& call, TestResult* result);

}  // namespace judge
