// The `hypotheses` checker: compares a ranked list of hypotheses, each
// {tokens, log_prob, score}, with the expected list (stored, the
// reference's, or check_args.expect_op's, as for `values`). Tokens must be
// equal, numbers within the case's tolerance. A failure names the first
// hypothesis that differs and shows both hypotheses whole, which says more
// than the first differing number: a wrong search returns other sequences.
#include <fmt/format.h>
#include <cmath>

#include "check/checker.hpp"
#include "check/compare.hpp"
#include "check/registry.hpp"
#include "run/number_list.hpp"
#include "util/errors.hpp"

namespace judge {
namespace {
using nlohmann::json;

constexpr std::size_t kShownTokens = 24;

bool is_hypothesis(const json& h) {
  if (!h.is_object() || !h.contains("tokens") || !h.contains("log_prob") || !h.contains("score")) return false;
  if (!h["tokens"].is_array() || !h["log_prob"].is_number() || !h["score"].is_number()) return false;
  for (const json& t : h["tokens"])
    if (!t.is_number_integer()) return false;
  return true;
}

// At most `shown` tokens: the first and the last shown / 2 of a long list.
std::string tokens_text(const json& tokens, std::size_t shown = kShownTokens) {
  std::string out = "[";
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (i == shown / 2 && tokens.size() > shown) {
      out += fmt::format(", ... ({} tokens in all) ...", tokens.size());
      i = tokens.size() - shown / 2;
    }
    out += (i ? ", " : "") + tokens[i].dump();
  }
  return out + "]";
}

std::string hypothesis_text(const json& h) {
  return fmt::format("{} (log_prob {}, score {})", tokens_text(h["tokens"]), format_number(h["log_prob"].get<double>()),
                     format_number(h["score"].get<double>()));
}

std::string list_text(const json& list) {
  std::string out;
  for (std::size_t i = 0; i < list.size() && i < 4; ++i) out += (i ? ", " : "") + tokens_text(list[i]["tokens"], 8);
  if (list.size() > 4) out += fmt::format(", ... ({} in all)", list.size());
  return "[" + out + "]";
}

}  // namespace

std::optional<std::string> compare_hypotheses(const json& want, const json& got, const Tolerance& tolerance) {
  if (!got.is_array()) return fmt::format("expected a list of hypotheses, got {}", brief(got, 4));
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!is_hypothesis(got[i]))
      return fmt::format("hypothesis {} is not {{tokens, log_prob, score}}: {}", i, brief(got[i], 4));
  for (std::size_t i = 0; i < want.size() && i < got.size(); ++i) {
    const json& w = want[i];
    const json& g = got[i];
    if (w["tokens"] != g["tokens"])
      return fmt::format("hypothesis {}: expected {}, got {}; expected the list {}, got {}", i, hypothesis_text(w),
                         hypothesis_text(g), list_text(want), list_text(got));
    for (const char* key : {"log_prob", "score"}) {
      double x = w[key].get<double>(), y = g[key].get<double>();
      if (!numbers_match(x, y, tolerance))
        return fmt::format("hypothesis {} {}: {} expected {}, got {} (error {}, tolerance atol {} or rtol {})", i,
                           tokens_text(w["tokens"]), key, format_number(x), format_number(y),
                           format_number(std::fabs(y - x)), format_number(tolerance.atol),
                           format_number(tolerance.rtol));
    }
  }
  if (got.size() < want.size())
    return fmt::format("expected {} hypotheses, got {}; the first missing one is {}", want.size(), got.size(),
                       hypothesis_text(want[got.size()]));
  if (got.size() > want.size())
    return fmt::format("expected {} hypotheses, got {}; the first extra one is {}", want.size(), got.size(),
                       hypothesis_text(got[want.size()]));
  return std::nullopt;
}

namespace {
class HypothesesChecker : public Checker {
 public:
  std::optional<std::string> problem_with(const TestCase& test, const Operation& op) const override {
    for (const auto& [key, value] : test.check_args.items()) {
      if (key != "expect_op") return "check 'hypotheses' takes only check_args.expect_op, not '" + key + "'";
      if (!value.is_string()) return "check_args.expect_op must name an op";
    }
    if (op.output != ValueType::kAny) return "check 'hypotheses' needs an op whose output is 'any'";
    if (test.expect) {
      if (!test.expect->is_array()) return "'expect' must be a list of {tokens, log_prob, score}";
      for (const json& h : *test.expect)
        if (!is_hypothesis(h)) return "'expect' must be a list of {tokens, log_prob, score}";
    }
    return std::nullopt;
  }

  TestResult run(CheckContext& context) const override {
    const TestCase& test = context.test;
    TestResult result = start_result(test);
    const Request request(test.op, test.input);
    CallResult call = call_learner(context, request, &result);
    if (verdict_for_unusual_call(call, context, request, &result)) {
      if (result.verdict != Verdict::kAccepted && !test.expects_invalid_argument)
        result.details = details(expected_value(context), nullptr);
      return result;
    }
    if (test.expects_invalid_argument) {
      result.returned = expanded(call.value);
      return fail(&result, fmt::format("expected std::invalid_argument, but it returned {}", brief(call.value, 4)),
                  "no_throw");
    }
    json want = expected_value(context);
    if (!want.is_array())
      throw JudgeFault{fmt::format("case '{}': the expected value is not a list of hypotheses", test.name)};
    if (auto mismatch = compare_hypotheses(want, call.value, test.tolerance)) {
      result.returned = expanded(call.value);
      fail(&result, with_case_tolerance(context, *mismatch), "value");
      result.details = details(want, &call.value);
    }
    return result;
  }

 private:
  static std::string details(const json& want, const json* got) {
    std::string out;
    auto listing = [](const json& list) {
      std::string text;
      if (!list.is_array()) return brief(list, 8) + "\n";
      for (const json& h : list) text += "          " + (is_hypothesis(h) ? hypothesis_text(h) : brief(h, 8)) + "\n";
      return list.empty() ? std::string("          (none)\n") : text;
    };
    out += "expected:\n" + listing(want);
    if (got) out += "got:\n" + listing(*got);
    return out;
  }
};
}  // namespace

const Checker& hypotheses_checker() {
  static const HypothesesChecker checker;
  return checker;
}

}  // namespace judge
