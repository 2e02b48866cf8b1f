// `performance`: the learner's op must be correct on a large input and take
// at most `factor` times the reference's time (plus `slack_ms`, so tiny
// timings do not decide anything), by two clocks the judge reads itself:
// CPU time, from the kernel's accounting of the runner (every thread, and
// every process where a cgroup counts them), and wall-clock time, which
// catches waiting and sleeping. Calls are interleaved reference/learner so
// machine noise hits both, `repetitions` each; medians are compared. Each
// timed call is on an input of its own, new to both runners
// (check/timed_inputs.hpp), so a memo of earlier answers saves the learner
// nothing; the reference is timed on the same inputs. Every learner call's
// value is checked. A learner call three times over the
// limit in CPU time fails the case and is stopped there, and a learner far
// over the limit in most of its calls, or far within it, is not run the
// rest.
#include <fmt/format.h>

#include <algorithm>

#include "check/checker.hpp"
#include "check/compare.hpp"
#include "check/registry.hpp"
#include "check/stats.hpp"
#include "check/timed_inputs.hpp"
#include "run/number_list.hpp"
#include "util/errors.hpp"

namespace judge {
namespace {
struct Timings {
  std::vector<double> cpu_ms, wall_ms;
  void add(const CallResult& call) {
    cpu_ms.push_back(call.cpu_ms);
    // By the clock, less the time the machine kept the runner from a CPU.
    wall_ms.push_back(call.wall_ms - call.queued_ms);
  }
};

// True once the learner calls made so far settle the median of all
// `repetitions` either way, so the rest is not run:
//   - too slow: most of them, by either clock, took more than twice the
//     limit the reference's slowest call so far allows; the median would be
//     over the limit unless the reference became twice as slow (the rest
//     costs seconds a call for a solution of the wrong complexity);
//   - fast enough: most of them, by both clocks, took at most half the
//     limit the reference's fastest call allows; the median would be within
//     it unless the reference became twice as fast (a correct solution's
//     performance case is most of an edited run's last second).
bool median_settled(const Timings& learner, const Timings& reference, double factor, double slack_ms, int repetitions) {
  const std::size_t majority = static_cast<std::size_t>(repetitions / 2 + 1);
  if (learner.cpu_ms.size() < majority || learner.cpu_ms.size() >= static_cast<std::size_t>(repetitions)) return false;
  bool fast_enough = true;
  for (bool cpu : {true, false}) {
    const std::vector<double>& mine = cpu ? learner.cpu_ms : learner.wall_ms;
    const std::vector<double>& theirs = cpu ? reference.cpu_ms : reference.wall_ms;
    const double twice_limit = 2 * (factor * *std::max_element(theirs.begin(), theirs.end()) + slack_ms);
    const double half_limit = factor * *std::min_element(theirs.begin(), theirs.end()) / 2 + slack_ms;
    auto calls = [&](auto counts) { return static_cast<std::size_t>(std::count_if(mine.begin(), mine.end(), counts)); };
    if (calls([&](double t) { return t > twice_limit; }) >= majority) return true;
    fast_enough = fast_enough && calls([&](double t) { return t <= half_limit; }) >= majority;
  }
  return fast_enough;
}

// A learner call that has used this many times the limit in CPU time (and
// at least kHopelessFloorMs, which a first call's page faults stay far
// below) fails the case there and is stopped: a solution of the wrong
// complexity costs a grader half a second, not the case's time limit.
// CPU time, so a loaded machine never stops a call early.
constexpr double kHopelessTimes = 3;
constexpr double kHopelessFloorMs = 500;

// The CPU time limit the reference's calls so far allow.
double cpu_limit_ms(const Timings& reference, double factor, double slack_ms) {
  return factor * *std::max_element(reference.cpu_ms.begin(), reference.cpu_ms.end()) + slack_ms;
}

double hopeless_after_ms(const Timings& reference, double factor, double slack_ms) {
  return std::max(kHopelessFloorMs, kHopelessTimes * cpu_limit_ms(reference, factor, slack_ms));
}

CallResult time_reference(CheckContext& context, const Request& request) {
  CallResult theirs = context.reference_call(request);
  if (theirs.outcome != CallResult::Outcome::kValue)
    throw JudgeFault{fmt::format("{}: the reference solution did not return a value for op '{}' while timing it: {}{}",
                                 context.problem.slug, request.op(), theirs.detail, theirs.what)};
  return theirs;
}

TestResult hopeless(TestResult* result, const TestCase& test, const Timings& reference, double factor, double slack_ms,
                    double used_ms) {
  result->verdict = Verdict::kTimeLimitExceeded;
  result->failure_kind = "slow";
  const double limit = cpu_limit_ms(reference, factor, slack_ms);
  result->message = fmt::format(
      "too slow: your {} had used {:.0f} ms of CPU time without returning, {:.0f} times the limit, and was "
      "stopped; the reference took {:.1f} ms, and the limit is {:g}x the reference plus {:g} ms = {:.1f} ms. "
      "Look for work that grows faster than the input.",
      test.op, used_ms, used_ms / limit, *std::max_element(reference.cpu_ms.begin(), reference.cpu_ms.end()), factor,
      slack_ms, limit);
  return *result;
}

struct Settings {
  double factor = 1;
  int repetitions = 5;
  double slack_ms = 2;
};

// One untimed call on the case's own input (under --sanitize, or looking
// for a known mistake): its value is checked, its speed is not.
TestResult check_untimed(CheckContext& context, const Operation& op, TestResult* result) {
  const TestCase& test = context.test;
  const Request request(test.op, test.input);
  const nlohmann::json want = context.reference(test.op, test.input);
  CallResult call = call_learner(context, request, result);
  if (verdict_for_unusual_call(call, context, request, result)) return *result;
  if (auto mismatch = compare_output(op.output, want, call.value, test.tolerance)) {
    result->returned = expanded(call.value);
    return fail(result, with_case_tolerance(context, *mismatch), "value");
  }
  result->message = context.timing_off_reason;
  return *result;
}

// Times the reference and the learner on `settings.repetitions` inputs,
// each new to both runners (TimedInputs), the reference first on each;
// false when a learner call ended the case, with *result saying how.
bool time_calls(CheckContext& context, const Operation& op, const Settings& settings, Timings* learner,
                Timings* reference, TestResult* result) {
  const TestCase& test = context.test;
  TimedInputs inputs(context);
  // The reference's first call faults its memory in (16 ms instead of 2 ms
  // for temperature's 262,144 logits); counted, it would make the first CPU
  // budget below eight times too generous. On the case's own input, which
  // no timed call gets.
  Request warm_up(test.op, test.input);
  time_reference(context, warm_up.set_timed());
  for (int i = 0; i < settings.repetitions; ++i) {
    Request request(test.op, inputs.next());
    request.set_timed();
    // The reference first, so that the learner's call can be stopped once
    // it is hopelessly over the limit instead of at the case's time limit.
    CallResult theirs = time_reference(context, request);
    reference->add(theirs);
    request.set_cpu_budget_ms(hopeless_after_ms(*reference, settings.factor, settings.slack_ms));
    CallResult call = call_learner(context, request, result);
    if (call.outcome == CallResult::Outcome::kTimeout && call.cpu_ms >= request.cpu_budget_ms())
      return hopeless(result, test, *reference, settings.factor, settings.slack_ms, call.cpu_ms), false;
    if (verdict_for_unusual_call(call, context, request, result)) return false;
    // Every call's value: a solution that answered some calls with
    // anything cheap would otherwise be timed on work it did not do.
    if (auto mismatch = compare_output(op.output, theirs.value, call.value, test.tolerance)) {
      result->returned = expanded(call.value);
      result->input = inputs.last_as_written();
      fail(result,
           fmt::format("timed call {} of {}, on an input of its own (the case's input drawn from other seeds, "
                       "shown): {}",
                       i + 1, settings.repetitions, with_case_tolerance(context, *mismatch)),
           "value");
      return false;
    }
    learner->add(call);
    if (median_settled(*learner, *reference, settings.factor, settings.slack_ms, settings.repetitions)) break;
  }
  return true;
}

// The verdict of the medians: CPU time first (it is what the contract is
// about, and the steadier), then the clock.
TestResult compare_medians(const TestCase& test, const Settings& settings, const Timings& learner,
                           const Timings& reference, TestResult* result) {
  for (bool cpu : {true, false}) {
    const double mine = median(cpu ? learner.cpu_ms : learner.wall_ms);
    const double theirs = median(cpu ? reference.cpu_ms : reference.wall_ms);
    const double limit = settings.factor * theirs + settings.slack_ms;
    if (mine <= limit) continue;
    result->verdict = Verdict::kTimeLimitExceeded;
    result->failure_kind = "slow";
    result->message =
        cpu ? fmt::format(
                  "too slow: your {} took {:.1f} ms of CPU time, the reference {:.1f} ms (medians of {} runs each, "
                  "every thread counted, each run on an input of its own); the limit is {:g}x the reference plus "
                  "{:g} ms = {:.1f} ms. Look for work that grows faster than the input.",
                  test.op, mine, theirs, learner.cpu_ms.size(), settings.factor, settings.slack_ms, limit)
            : fmt::format(
                  "too slow: your {} took {:.1f} ms by the clock, the reference {:.1f} ms (medians of {} runs "
                  "each; waiting and sleeping count); the limit is {:g}x the reference plus {:g} ms = {:.1f} ms. "
                  "Your CPU time was {:.1f} ms: the rest was spent waiting.",
                  test.op, mine, theirs, learner.cpu_ms.size(), settings.factor, settings.slack_ms, limit,
                  median(learner.cpu_ms));
    return *result;
  }
  return *result;
}

class PerformanceChecker : public Checker {
 public:
  std::optional<std::string> problem_with(const TestCase& test, const Operation&) const override {
    if (test.expect || test.expects_invalid_argument)
      return "a performance check takes neither 'expect' nor 'throws' (it compares with the reference)";
    for (const auto& [key, value] : test.check_args.items()) {
      bool ok =
          (key == "factor" && value.is_number() && value.get<double>() >= 1) ||
          (key == "repetitions" && value.is_number_integer() && value.get<int>() >= 1 && value.get<int>() <= 25) ||
          (key == "slack_ms" && value.is_number() && value.get<double>() >= 0) || key == "reseed";
      if (!ok)
        return fmt::format(
            "check_args.{}: expected factor (>= 1), repetitions (1 to 25), slack_ms (>= 0) or reseed (paths of seeds "
            "in the input)",
            key);
    }
    if (!test.check_args.contains("factor")) return "check_args.factor is required (e.g. 10)";
    return timed_inputs_problem(test);
  }

  CheckCost cost() const override { return CheckCost::kTimed; }

  TestResult run(CheckContext& context) const override {
    const TestCase& test = context.test;
    TestResult result = start_result(test);
    const Operation& op = *context.problem.find_op(test.op);
    if (!context.timing_on()) return check_untimed(context, op, &result);
    const Settings settings{test.check_args["factor"].get<double>(), test.check_args.value("repetitions", 5),
                            test.check_args.value("slack_ms", 2.0)};
    Timings learner, reference;
    if (!time_calls(context, op, settings, &learner, &reference, &result)) return result;
    return compare_medians(test, settings, learner, reference, &result);
  }
};
}  // namespace

const Checker& performance_checker() {
  static const PerformanceChecker checker;
  return checker;
}

}  // namespace judge
