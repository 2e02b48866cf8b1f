// The ops `judge try` offers and the reading of a learner's input.
#include "judging/try_input.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>

#include "check/registry.hpp"
#include "package/typed_values.hpp"
#include "package/yaml_reader.hpp"
#include "util/errors.hpp"
#include "util/text.hpp"

namespace judge {
namespace fs = std::filesystem;
namespace {
bool takes(const Operation& op, const std::string& name) {
  return std::any_of(op.inputs.begin(), op.inputs.end(), [&](const auto& input) { return input.first == name; });
}

// Which of the checks of an op's cases decides how it is tried: a
// sampler's wins over the values cases the same op has for invalid
// arguments, and hypotheses (a comparison of its own) over values.
int rank(const TryableOp& op) { return op.mode != TryMode::kValue ? 2 : op.check == "hypotheses" ? 1 : 0; }

// How the cases of `op` judge it. Nullopt when no case calls
// the op but a timed check.
std::optional<TryableOp> tryable(const Problem& problem, const Operation& op) {
  std::optional<TryableOp> found;
  const TestCase* decided_by = nullptr;
  for (const TestCase* test : problem.cases()) {
    if (test->op != op.name || cost_of(*test) == CheckCost::kTimed) continue;
    TryableOp candidate;
    candidate.op = &op;
    candidate.check = test->check;
    if (test->check == "distribution" || test->check == "sampler_support") {
      candidate.mode = TryMode::kSampler;
      candidate.probs_op = test->check_args.value("probs_op", "");
      candidate.seed_input = "seeds";
    } else if (test->check == "speculative") {
      candidate.mode = takes(op, "seeds") ? TryMode::kLaws : TryMode::kSeedSweep;
      candidate.seed_input = takes(op, "seeds") ? "seeds" : "seed";
    } else if (test->check != "hypotheses") {
      candidate.check = "values";
    }
    candidate.check_args = candidate.mode == TryMode::kValue ? nlohmann::json::object() : test->check_args;
    if (!found || rank(candidate) > rank(*found)) {
      found = candidate;
      decided_by = test;
    }
  }
  if (!found) return std::nullopt;
  // An example of the mode's own kind, so that it can be given back as it is.
  for (const TestCase& sample : problem.samples)
    if (sample.op == op.name && (sample.check == decided_by->check || found->mode == TryMode::kValue) &&
        !sample.expects_invalid_argument && cost_of(sample) != CheckCost::kTimed) {
      found->example = &sample;
      break;
    }
  return found;
}

std::vector<std::string> op_names(const std::vector<TryableOp>& ops) {
  std::vector<std::string> names;
  for (const TryableOp& op : ops) names.push_back(op.op->name);
  return names;
}

// The input as a YAML node; a syntax error names its line and column.
YAML::Node load_input(const std::string& text, std::string* file) {
  std::error_code error;
  if (!text.empty() && text.find('\n') == std::string::npos && fs::is_regular_file(text, error)) {
    *file = text;
    return load_yaml_file(text);
  }
  *file = "--input";
  return load_yaml_text(text, "--input");
}
}  // namespace

std::string try_mode_name(TryMode mode) {
  switch (mode) {
    case TryMode::kValue: return "value";
    case TryMode::kSampler: return "sampler";
    case TryMode::kLaws: return "laws";
    case TryMode::kSeedSweep: return "seed_sweep";
  }
  return "?";
}

std::vector<TryableOp> tryable_ops(const Problem& problem) {
  std::vector<TryableOp> ops;
  for (const Operation& op : problem.ops)
    if (std::optional<TryableOp> found = tryable(problem, op)) ops.push_back(*found);
  return ops;
}

TryableOp choose_op(const Problem& problem, const std::string& name) {
  std::vector<TryableOp> ops = tryable_ops(problem);
  if (ops.empty()) throw JudgeFault{fmt::format("{}: no case calls an op that can be tried", problem.slug)};
  if (name.empty()) return ops.front();
  for (const TryableOp& op : ops)
    if (op.op->name == name) return op;
  std::string list = fmt::format("{}", fmt::join(op_names(ops), ", "));
  if (problem.find_op(name))
    throw JudgeFault{
        fmt::format("--op: '{}' is one of the judge's own ops of {} (its checks call it), not yours; the "
                    "ops you can try: {}",
                    name, problem.slug, list)};
  std::string best = nearest_name(name, op_names(ops));
  throw JudgeFault{fmt::format("--op: {} has no op '{}'{}; the ops you can try: {}", problem.slug, name,
                               best.empty() ? "" : fmt::format(" (did you mean '{}'?)", best), list)};
}

std::string inputs_text(const TryableOp& op) {
  std::vector<std::string> inputs;
  for (const auto& [name, type] : op.op->inputs) {
    if (name == op.seed_input && op.mode != TryMode::kSeedSweep) continue;
    std::string type_name = value_type_names()[static_cast<std::size_t>(type)];
    inputs.push_back(fmt::format("{}: {}{}", name, type_name, name == op.seed_input ? " (optional)" : ""));
  }
  return fmt::format("{}", fmt::join(inputs, ", "));
}

TestCase try_case(const Problem& problem, const TryableOp& op, const nlohmann::json& input) {
  TestCase test;
  test.name = "try";
  test.op = op.op->name;
  test.input = input;
  test.check = op.check;
  test.check_args = op.check_args;
  test.tolerance = problem.tolerance;
  test.time_ms = problem.time_ms;
  return test;
}

TryInput read_try_input(const Problem& problem, const TryableOp& op, const std::string& text) {
  std::string file;
  YAML::Node node = load_input(text, &file);
  const std::string where = display_path(file);
  const std::string signature = fmt::format("op {} takes {}", op.op->name, inputs_text(op));
  if (!node.IsMap()) fail_at(file, node, fmt::format("expected a mapping of the op's inputs ({})", signature));
  std::vector<std::string> allowed;
  for (const auto& [name, type] : op.op->inputs)
    if (name != op.seed_input || op.mode == TryMode::kSeedSweep) allowed.push_back(name);
  for (const auto& entry : node) {
    const std::string key = entry.first.Scalar();
    if (key == op.seed_input && op.mode != TryMode::kSeedSweep)
      fail_at(file, entry.first,
              fmt::format("key '{}': the judge supplies it ({} is judged as a sampler, over --draws N seeds of "
                          "its own); leave it out",
                          key, op.op->name));
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    std::vector<std::string> missing;  // the names it may be a misspelling of
    for (const std::string& name : allowed)
      if (!node[name]) missing.push_back(name);
    std::string best = nearest_name(key, missing);
    fail_at(file, entry.first,
            fmt::format("unknown key '{}' ({})", key,
                        best.empty() ? signature : fmt::format("did you mean '{}'? {}", best, signature)));
  }
  TryInput input;
  nlohmann::json given = nlohmann::json::object();
  for (const auto& [name, type] : op.op->inputs) {
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) continue;
    if (!node[name]) {
      if (name == op.seed_input) continue;  // a seed_sweep op's seed: the judge sweeps seeds
      throw SpecError{fmt::format("{}: missing key '{}' ({})", where, name, signature)};
    }
    given[name] = read_typed_value(node[name], type, file, name);
    if (name == op.seed_input) input.seed_given = true;
  }
  input.args = materialize_input(given);
  if (op.mode == TryMode::kSampler || op.mode == TryMode::kLaws) {
    // What a case of the same check would be refused for (a malformed model, say).
    if (std::optional<std::string> unsuitable =
            find_checker(op.check)->problem_with(try_case(problem, op, input.args), *op.op))
      throw SpecError{fmt::format("{}: {}", where, *unsuitable)};
  }
  return input;
}

}  // namespace judge
