// The `growth` checker: does the work of one call grow no faster than the
// contract allows? The op times itself inside the runner (CPU time per call
// at two sizes) and returns {lengths: [small, large], ns_per_step: [[...],
// [...]]}; the checker compares the medians. Timing on a shared machine is
// noisy, so the limit on the ratio sits far from both the allowed growth and
// the growth it exists to catch, and a failing ratio close to the limit is
// measured again before it counts.
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

std::string duration(double ns) {
  if (ns >= 1e9) return fmt::format("{:.3g} s", ns / 1e9);
  if (ns >= 1e6) return fmt::format("{:.3g} ms", ns / 1e6);
  if (ns >= 1e3) return fmt::format("{:.3g} us", ns / 1e3);
  return fmt::format("{:.3g} ns", ns);
}

struct Measurement {
  double small_length = 0, large_length = 0;
  double small_ns = 0, large_ns = 0;
  double ratio() const { return large_ns / std::max(small_ns, 1.0); }
};

// nullopt when the reply does not have the timing op's shape.
std::optional<Measurement> read_measurement(const json& value) {
  if (!value.is_object() || !value.contains("lengths") || !value.contains("ns_per_step")) return std::nullopt;
  const json& lengths = value["lengths"];
  const json& times = value["ns_per_step"];
  if (!lengths.is_array() || !times.is_array() || lengths.size() != 2 || times.size() != 2) return std::nullopt;
  std::vector<double> medians;
  for (const json& list : times) {
    if (!list.is_array() || list.empty()) return std::nullopt;
    std::vector<double> values;
    for (const json& t : list) {
      if (!t.is_number()) return std::nullopt;
      values.push_back(t.get<double>());
    }
    medians.push_back(median(values));
  }
  Measurement m;
  m.small_length = lengths[0].get<double>();
  m.large_length = lengths[1].get<double>();
  m.small_ns = medians[0];
  m.large_ns = medians[1];
  return m;
}

// check_args: max_ratio (required): the largest allowed ratio of the median
// time per call at the large size to the one at the small size;
// attempts (default 3): measurements when the ratio is over the limit but not
// clearly so; allowed (text, optional) and caught (text, optional): what the
// limit separates, for the message (e.g. "O(length)" and "O(length^2)").
class GrowthChecker : public Checker {
 public:
  std::optional<std::string> problem_with(const TestCase& test, const Operation& op) const override {
    for (const auto& [key, value] : test.check_args.items()) {
      if (key == "max_ratio" || key == "attempts") {
        if (!value.is_number() || value.get<double>() <= 0)
          return fmt::format("check_args.{} must be a positive number", key);
      } else if (key == "allowed" || key == "caught") {
        if (!value.is_string()) return fmt::format("check_args.{} must be a string", key);
      } else {
        return fmt::format("check 'growth' takes check_args max_ratio, attempts, allowed and caught, not '{}'", key);
      }
    }
    if (!test.check_args.contains("max_ratio")) return "check 'growth' needs check_args.max_ratio";
    if (test.expect || test.expects_invalid_argument) return "check 'growth' takes neither 'expect' nor 'throws'";
    if (op.output != ValueType::kAny) return "check 'growth' needs an op whose output is 'any'";
    return std::nullopt;
  }

  bool measures_speed() const override { return true; }

  TestResult run(CheckContext& context) const override {
    const TestCase& test = context.test;
    TestResult result = start_result(test);
    const double limit = test.check_args["max_ratio"].get<double>();
    const int attempts = static_cast<int>(test.check_args.value("attempts", 3.0));
    std::optional<Measurement> best;
    for (int attempt = 0; attempt < std::max(attempts, 1); ++attempt) {
      CallResult call = context.learner.call(test.op, test.input, test.time_ms);
      account_call(call, &result);
      if (verdict_for_unusual_call(call, test, context.problem.memory_mb, &result)) return result;
      std::optional<Measurement> m = read_measurement(call.value);
      if (!m)
        throw JudgeFault{
            fmt::format("case '{}': op '{}' returned no timings: {}", test.name, test.op, brief(call.value, 4))};
      if (!(m->small_ns > 0) || !(m->large_ns > 0))
        throw JudgeFault{fmt::format("case '{}': op '{}' measured no CPU time; the runner's clock does not advance",
                                     test.name, test.op)};
      if (!best || m->ratio() < best->ratio()) best = m;
      if (best->ratio() <= limit || best->ratio() > kClearlyOver * limit) break;
    }
    if (best->ratio() <= limit) return result;
    const double size_ratio = best->large_length / std::max(best->small_length, 1.0);
    std::string allowed = test.check_args.value("allowed", std::string("linear"));
    std::string caught = test.check_args.value("caught", std::string("quadratic"));
    result.verdict = Verdict::kWrongAnswer;
    result.failure_kind = "growth";
    result.message = fmt::format(
        "too slow as the length grows: a call took {} (median CPU time) at length {} and {} at length {}, "
        "{:.1f} times as long for {:.0f} times the length; the limit is {} ({} work grows about {:.0f} times, "
        "{} work about {:.0f} times)",
        duration(best->small_ns), best->small_length, duration(best->large_ns), best->large_length, best->ratio(),
        size_ratio, format_number(limit), allowed, size_ratio, caught, size_ratio * size_ratio);
    return result;
  }
};
}  // namespace

const Checker& growth_checker() {
  static const GrowthChecker checker;
  return checker;
}

}  // namespace judge
