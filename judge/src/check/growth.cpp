// The `growth` checker: does the work of one call grow no faster than the
// contract allows? The op runs `batch` steps at a given `length` (kv_cache:
// attention steps on a cache of that many tokens); the judge times each call
// from outside, by the kernel's CPU accounting of the runner and by its own
// clock, and compares the median time per step at a large length with the
// one at a small length. Timing on a shared machine is noisy, so the limit
// on the ratio sits far from both the allowed growth and the growth it
// exists to catch, and a failing ratio close to the limit is measured again
// before it counts. Every call's answer is compared with the reference's:
// being fast does not excuse being wrong.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "check/checker.hpp"
#include "check/compare.hpp"
#include "check/registry.hpp"
#include "check/stats.hpp"
#include "util/errors.hpp"

namespace judge {
namespace {
using nlohmann::json;

// A measurement that is this many times over the limit is not noise.
constexpr double kClearlyOver = 2.0;
// Rounds of distinct steps the op offers per length (round 0 warms up).
constexpr int kRounds = 32;

std::string duration(double ms) {
  if (ms >= 1e3) return fmt::format("{:.3g} s", ms / 1e3);
  if (ms >= 1) return fmt::format("{:.3g} ms", ms);
  if (ms >= 1e-3) return fmt::format("{:.3g} us", ms * 1e3);
  return fmt::format("{:.3g} ns", ms * 1e6);
}

// Time per step at each of the two lengths, by one clock.
struct PerStep {
  std::vector<double> small, large;
  double ratio() const { return median(large) / std::max(median(small), 1e-6); }
};

struct Measurement {
  PerStep cpu, wall;
};

// check_args: lengths and batches (required, two positive integers each:
// the small and the large length, and the steps per call at each), repeats
// (default 7): timed calls per length and attempt; max_ratio (required): the
// largest allowed ratio of the time per step at the large length to the one
// at the small; attempts (default 3): measurements when a ratio is over the
// limit but not clearly so; allowed and caught (text, optional): what the
// limit separates, for the message (e.g. "linear" and "quadratic").
class GrowthChecker : public Checker {
 public:
  std::vector<std::string> supplied_inputs(const TestCase&) const override { return {"length", "batch", "round"}; }

  std::optional<std::string> problem_with(const TestCase& test, const Operation& op) const override {
    for (const auto& [key, value] : test.check_args.items()) {
      if (key == "max_ratio") {
        if (!value.is_number() || value.get<double>() <= 1) return "check_args.max_ratio must be a number above 1";
      } else if (key == "attempts" || key == "repeats") {
        if (!value.is_number_integer() || value.get<int>() < 1)
          return fmt::format("check_args.{} must be a positive integer", key);
      } else if (key == "lengths" || key == "batches") {
        bool ok = value.is_array() && value.size() == 2;
        for (const json& each : value) ok = ok && each.is_number_integer() && each.get<long>() >= 1;
        if (!ok) return fmt::format("check_args.{} must be two positive integers (small, large)", key);
      } else if (key == "allowed" || key == "caught") {
        if (!value.is_string()) return fmt::format("check_args.{} must be a string", key);
      } else {
        return fmt::format(
            "check 'growth' takes check_args lengths, batches, repeats, max_ratio, attempts, allowed and caught, not "
            "'{}'",
            key);
      }
    }
    for (const char* required : {"max_ratio", "lengths", "batches"})
      if (!test.check_args.contains(required)) return fmt::format("check 'growth' needs check_args.{}", required);
    if (test.check_args["lengths"][0].get<long>() >= test.check_args["lengths"][1].get<long>())
      return "check_args.lengths must grow: the small length first";
    if (test.check_args.value("attempts", 3) * test.check_args.value("repeats", 7) >= kRounds)
      return fmt::format("check_args.attempts times check_args.repeats must stay below {} (the op's rounds)", kRounds);
    if (test.expect || test.expects_invalid_argument) return "check 'growth' takes neither 'expect' nor 'throws'";
    if (op.output != ValueType::kAny) return "check 'growth' needs an op whose output is 'any'";
    return std::nullopt;
  }

  CheckCost cost() const override { return CheckCost::kTimed; }

  TestResult run(CheckContext& context) const override {
    const TestCase& test = context.test;
    TestResult result = start_result(test);
    // Not skipped under --sanitize: a ratio of two sanitized timings is as
    // fair as one of two plain ones.
    const double limit = test.check_args["max_ratio"].get<double>();
    const int attempts = test.check_args.value("attempts", 3);
    const int repeats = test.check_args.value("repeats", 7);
    const long lengths[2] = {test.check_args["lengths"][0].get<long>(), test.check_args["lengths"][1].get<long>()};
    const long batches[2] = {test.check_args["batches"][0].get<long>(), test.check_args["batches"][1].get<long>()};
    int round = 0;
    // One untimed call per length first: the op fills its cache, the
    // learner's code warms up.
    for (int size = 0; size < 2; ++size)
      if (!call(context, lengths[size], batches[size], round, nullptr, &result)) return result;
    std::optional<Measurement> best;
    for (int attempt = 0; attempt < attempts; ++attempt) {
      Measurement m;
      for (int repeat = 0; repeat < repeats; ++repeat) {
        ++round;
        for (int size = 0; size < 2; ++size) {  // interleaved, so noise hits both
          CallResult timed;
          if (!call(context, lengths[size], batches[size], round, &timed, &result)) return result;
          (size == 0 ? m.cpu.small : m.cpu.large).push_back(timed.cpu_ms / static_cast<double>(batches[size]));
          // By the clock, less the time the machine kept the runner from a CPU.
          double clock_ms = timed.wall_ms - timed.queued_ms;
          (size == 0 ? m.wall.small : m.wall.large).push_back(clock_ms / static_cast<double>(batches[size]));
        }
        // Far over by CPU time already (which waiting for the machine does
        // not inflate): more rounds would only take longer to say so.
        if (m.cpu.ratio() > kClearlyOver * limit) break;
      }
      if (!(median(m.cpu.small) > 0) || !(median(m.cpu.large) > 0))
        throw JudgeFault{fmt::format("case '{}': the kernel reported no CPU time for the runner", test.name)};
      if (!best || std::max(m.cpu.ratio(), m.wall.ratio()) < std::max(best->cpu.ratio(), best->wall.ratio())) best = m;
      double worst = std::max(best->cpu.ratio(), best->wall.ratio());
      // Only CPU time, which the machine's other work does not inflate, is
      // clearly over after one attempt; over by the clock alone (a stall,
      // the judge's own threads busy) must hold in every attempt.
      if (worst <= limit || best->cpu.ratio() > kClearlyOver * limit) break;
    }
    const bool cpu_over = best->cpu.ratio() > limit;
    if (!cpu_over && best->wall.ratio() <= limit) return result;
    const PerStep& shown = cpu_over ? best->cpu : best->wall;
    const double size_ratio = static_cast<double>(lengths[1]) / static_cast<double>(lengths[0]);
    std::string allowed = test.check_args.value("allowed", std::string("linear"));
    std::string caught = test.check_args.value("caught", std::string("quadratic"));
    // A speed verdict, as a performance case's: every answer was right.
    result.verdict = Verdict::kTimeLimitExceeded;
    result.failure_kind = "growth";
    result.message = fmt::format(
        "too slow as the length grows: a step took {} ({}) at length {} and {} at length {}, {:.1f} times as long "
        "for {:.0f} times the length; the limit is {} ({} work grows about {:.0f} times, {} work about {:.0f} times)",
        duration(median(shown.small)), cpu_over ? "median CPU time" : "median time by the clock, waiting included",
        lengths[0], duration(median(shown.large)), lengths[1], shown.ratio(), size_ratio, format_number(limit), allowed,
        size_ratio, caught, size_ratio * size_ratio);
    return result;
  }

 private:
  // One call of the op at `length`: false when it ended the case (a crash,
  // a wrong answer), with *result saying so. *timed gets the call.
  static bool call(CheckContext& context, long length, long batch, int round, CallResult* timed, TestResult* result) {
    json args = context.test.input;
    args["length"] = length;
    args["batch"] = batch;
    args["round"] = round;
    Request request(context.test.op, args);
    request.set_timed();
    CallResult call = call_learner(context, request, result);
    if (verdict_for_unusual_call(call, context, request, result)) return false;
    json want = context.reference(context.test.op, args);
    auto checksum = [](const json& value) {
      return value.is_object() && value.contains("checksum") && value["checksum"].is_number();
    };
    if (!checksum(call.value) || !checksum(want))
      throw JudgeFault{fmt::format("case '{}': op '{}' did not return a checksum: {}", context.test.name,
                                   context.test.op, brief(call.value, 4))};
    if (!numbers_match(want["checksum"].get<double>(), call.value["checksum"].get<double>(), context.test.tolerance)) {
      fail(result,
           fmt::format("wrong at length {}: the sum of {} steps' outputs was {}, the reference's {}", length, batch,
                       brief(call.value["checksum"], 4), brief(want["checksum"], 4)),
           "value");
      return false;
    }
    if (timed) *timed = std::move(call);
    return true;
  }
};
}  // namespace

const Checker& growth_checker() {
  static const GrowthChecker checker;
  return checker;
}

}  // namespace judge
