// try_solution: both runners, the session around them, and the value mode.
#include "judging/try_run.hpp"

#include <fmt/format.h>

#include "check/compare.hpp"
#include "compile/compile.hpp"
#include "judging/try_session.hpp"
#include "run/number_list.hpp"
#include "sandbox/limits.hpp"
#include "util/errors.hpp"
#include "util/text.hpp"

namespace judge {
namespace {
using nlohmann::json;

std::string exception_text(const CallResult& call) {
  return fmt::format("threw {}{}", call.exception_type, call.what.empty() ? "" : ": " + call.what);
}
}  // namespace

TrySession::TrySession(const Problem& problem, const TestCase& test, const BuiltRunners& runners,
                       const std::string& display_name)
    : problem_(problem),
      test_(test),
      oracle_(problem, runners.reference.binary),
      learner_(runners.learner.binary, limits_for(problem, /*sanitize=*/false)),
      crash_{runners.learner.binary, kCompiledSolutionPath, display_name, kCompileDirectory},
      context_{problem_, test_, learner_,
               [this](const std::string& op, const nlohmann::json& args) { return oracle_.call(op, args); }} {
  context_.reference_call = [this](const Request& request) { return oracle_.fresh_call(request); };
  learner_.start_early();
  oracle_.start_early();
}

bool TrySession::learner_call(const Request& request, TrySide* side) {
  TestResult result = start_result(test_);
  CallResult call = call_learner(context_, request, &result);
  side->threw_invalid_argument =
      call.outcome == CallResult::Outcome::kException && call.exception_kind == "invalid_argument";
  if (!verdict_for_unusual_call(call, context_, request, &result)) {
    side->returned = true;
    side->value = expanded(call.value);  // shown and written as JSON: lists, not typed arrays
    side->printed = result.output;
    return true;
  }
  explain_crash(crash_, &result);
  side->returned = false;
  side->verdict = result.verdict;
  side->message =
      side->threw_invalid_argument && result.verdict == Verdict::kAccepted ? exception_text(call) : result.message;
  side->printed = result.output;
  return false;
}

TrySide TrySession::reference_call(const Request& request) {
  CallResult call = oracle_.fresh_call(request);
  TrySide side;
  side.printed = call.output;
  if (call.outcome == CallResult::Outcome::kValue) {
    side.returned = true;
    side.value = expanded(call.value);
  } else if (call.outcome == CallResult::Outcome::kException && call.exception_kind == "invalid_argument") {
    side.threw_invalid_argument = true;
    side.message = exception_text(call);
  } else if (call.outcome == CallResult::Outcome::kHarnessError) {
    throw SpecError{fmt::format("--input: the harness cannot run op {} on it: {}", request.op(), call.detail)};
  } else {
    throw JudgeFault{fmt::format("{}: the reference solution did not return a value for op {} on this input: {}",
                                 problem_.slug, request.op(),
                                 call.outcome == CallResult::Outcome::kException ? exception_text(call) : call.detail)};
  }
  return side;
}

void try_value(TrySession& session, const TryableOp& op, const nlohmann::json& args, TryResult* result) {
  result->mode = TryMode::kValue;
  result->input = args;
  const Request request(op.op->name, args);
  result->reference = session.reference_call(request);
  session.test().expects_invalid_argument = result->reference.threw_invalid_argument;
  session.test().input = args;
  const bool returned = session.learner_call(request, &result->yours);
  if (!returned) {
    result->agree = result->yours.verdict == Verdict::kAccepted;  // both threw std::invalid_argument
    result->difference = result->agree
                             ? "none: both threw std::invalid_argument (the input is invalid)"
                             : fmt::format("yours ended in {}, the reference {}", verdict_name(result->yours.verdict),
                                           result->reference.returned ? "returned a value" : result->reference.message);
    return;
  }
  if (result->reference.threw_invalid_argument) {
    result->difference = fmt::format("the reference {} (the input is invalid), but yours returned {}",
                                     result->reference.message, brief(result->yours.value));
    return;
  }
  const json& want = result->reference.value;
  std::optional<std::string> mismatch =
      op.check == "hypotheses" && want.is_array()
          ? compare_hypotheses(want, result->yours.value, result->tolerance)
          : compare_output(op.op->output, want, result->yours.value, result->tolerance);
  result->agree = !mismatch;
  if (mismatch) *mismatch += "; " + tolerance_text(result->tolerance);
  if (mismatch && op.mode == TryMode::kSeedSweep)
    *mismatch +=
        "; for one seed a correct solution may differ from the reference, whose generator is its own: "
        "leave out '" +
        op.seed_input + "' to compare the outputs over many seeds";
  result->difference = mismatch
                           ? *mismatch
                           : fmt::format("none within the tolerance (atol {} or rtol {}; integers exactly)",
                                         format_number(result->tolerance.atol), format_number(result->tolerance.rtol));
}

TryResult try_solution(const Paths& paths, const Problem& problem, const TryableOp& op, const TryInput& input,
                       const TryRequest& request) {
  TryResult result;
  result.problem = problem.slug;
  result.op = op.op->name;
  result.solution = request.build.display_name;
  result.mode = op.mode;
  result.input = input.args;
  for (const auto& [name, type] : op.op->inputs) result.input_names.push_back(name);
  result.tolerance = problem.tolerance;
  BuiltRunners runners = build_runners(paths, problem, request.build);
  if (!runners.learner.ok) {
    result.compiled = false;
    result.diagnostics = runners.learner.diagnostics;
    result.difference = "yours does not compile";
    return result;
  }
  TrySession session(problem, try_case(problem, op, input.args), runners, request.build.display_name);
  if (op.mode == TryMode::kValue || input.seed_given) {
    try_value(session, op, input.args, &result);
    return result;
  }
  if (request.build.on_progress) request.build.on_progress(fmt::format("drawing {} seeds", request.draws));
  if (!try_draws(session, op, request.draws, &result)) {
    // The reference calls the input invalid: the learner's must throw too.
    nlohmann::json args = input.args;
    std::vector<std::uint64_t> first = session.seeds(1);
    args[op.seed_input] = op.seed_input == "seeds" ? nlohmann::json(first) : nlohmann::json(first.front());
    try_value(session, op, args, &result);
  }
  return result;
}

}  // namespace judge
