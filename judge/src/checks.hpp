// Checkers decide a case's verdict from what the learner's runner returned.
// Each is registered under the name a case gives in `check:`.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "runner_session.hpp"
#include "spec.hpp"
#include "verdict.hpp"

namespace judge {

// The judge itself cannot go on (the reference failed, the harness did not
// understand a request): exit status 2, never a learner's verdict.
struct JudgeFault {
  std::string message;
};

struct CheckContext {
  const Problem& problem;
  const TestCase& test;
  RunnerSession& learner;
  // Runs `op` on the reference solution and returns its value; throws
  // JudgeFault when the reference does not return one.
  std::function<nlohmann::json(const std::string& op, const nlohmann::json& args)> reference;
  // Sends the request to the reference afresh (never memoized) and returns
  // the CPU milliseconds the call took inside its runner; for performance
  // checks. May be empty where no timing is wanted (hints).
  std::function<double(const Request& request)> reference_cpu_ms = {};
  // Why speed is not compared with the reference in this run, when it is not
  // (a sanitized learner against an unsanitized reference would be unfair).
  std::string timing_off_reason = {};
};

class Checker {
 public:
  virtual ~Checker() = default;
  // Inputs of the op that the checker fills in itself (e.g. the seeds of a
  // distribution test); a case must not give them.
  virtual std::vector<std::string> supplied_inputs(const TestCase&) const { return {}; }
  // Checks a loaded case for what this checker needs; false with *error set
  // otherwise.
  virtual bool validate(const TestCase&, const Operation&, std::string* error) const {
    (void)error;
    return true;
  }
  virtual TestResult run(CheckContext& context) const = 0;
  // True for checkers that time the learner's code: their cases run alone,
  // after the others, so no other runner shares the machine with them.
  virtual bool measures_speed() const { return false; }
};

// The checker registered as `name`, or null.
const Checker* find_checker(const std::string& name);
// "values, distribution, ...", for messages.
std::string checker_names();

// Every checker by name; defined in checker_list.cpp, which names them all
// (a static library would drop self-registering objects nobody references).
std::vector<std::pair<std::string, const Checker*>> builtin_checkers();

// The default checker: the op's return value equals the expectation, or the
// call throws std::invalid_argument when the case says so.
const Checker& values_checker();

// The verdict of a call that did not return a value the checker can judge:
// time limit, crash, malformed reply, an exception (expected or not).
// Returns false when `call` holds a value and the checker must decide.
// Throws JudgeFault for a harness error.
bool verdict_for_unusual_call(const CallResult& call, const TestCase& test, int memory_mb, TestResult* result);

// A TestResult for `test` with its name and visibility filled in.
TestResult start_result(const TestCase& test);

}  // namespace judge
