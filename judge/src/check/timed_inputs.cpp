// Variants of a performance case's input, one per timed call.
#include "check/timed_inputs.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "package/typed_values.hpp"
#include "run/wire_format.hpp"
#include "util/errors.hpp"

namespace judge {
namespace {
using nlohmann::json;

// Variants in a row that may fall within the margin before the case is
// taken to be one that cannot keep it.
constexpr int kMarginAttempts = 8;

std::vector<std::string> reseeded_paths(const TestCase& test) {
  std::vector<std::string> paths;
  for (const json& path : test.check_args.value("reseed", json::array())) paths.push_back(path.get<std::string>());
  return paths;
}
}  // namespace

std::optional<std::string> timed_inputs_problem(const TestCase& test) {
  if (test.check_args.contains("reseed")) {
    const json& paths = test.check_args["reseed"];
    bool ok = paths.is_array() && !paths.empty();
    for (const json& path : paths) ok = ok && path.is_string();
    if (!ok) return "check_args.reseed must be a list of paths of seeds in the input (e.g. [model.seed])";
    for (const json& path : paths)
      if (!names_a_seed(test.input, path.get<std::string>()))
        return fmt::format("check_args.reseed: '{}' names no unsigned integer of the case's input",
                           path.get<std::string>());
  }
  if (has_seeds_to_vary(test.input, reseeded_paths(test))) return std::nullopt;
  return "each timed call gets an input of its own, made by drawing the case's input again from other seeds: the "
         "input needs a generator with a seed (uniform or normal), or check_args.reseed naming a seed in it (e.g. "
         "[model.seed] for a model described by its seed)";
}

TimedInputs::TimedInputs(CheckContext& context)
    : context_(context),
      written_(context.written_input ? *context.written_input : context.test.input),
      reseeded_(reseeded_paths(context.test)) {
  if (!has_seeds_to_vary(written_, reseeded_))
    throw JudgeFault{fmt::format("case '{}': the inputs of its timed calls cannot vary (no seed to draw them from)",
                                 context.test.name)};
}

json TimedInputs::next() {
  for (int attempt = 0; attempt < kMarginAttempts; ++attempt) {
    ++variant_;
    json input = input_variant(written_, variant_, reseeded_);
    // Each is sent once (to both runners): a generated list goes straight
    // into the channel's typed array, without a JSON number per entry.
    for (auto& [name, value] : input.items())
      if (std::optional<GeneratedList> list = generated_list(value))
        value = list->integers ? typed_array(list->ints) : typed_array(list->doubles);
    input = materialize_input(input);  // the rest (a generated matrix)
    if (keeps_margin(input)) return input;
  }
  throw JudgeFault{fmt::format(
      "case '{}': {} variants of its input in a row fall within the problem's margin of a decision boundary",
      context_.test.name, kMarginAttempts)};
}

json TimedInputs::last_as_written() const { return input_as_written(input_variant(written_, variant_, reseeded_)); }

bool TimedInputs::keeps_margin(const json& input) const {
  const std::optional<MarginRule>& margin = context_.problem.margin;
  if (!margin ||
      std::find(margin->applies_to.begin(), margin->applies_to.end(), context_.test.op) == margin->applies_to.end())
    return true;
  const Operation* op = context_.problem.find_op(margin->op);
  if (!op) throw JudgeFault{fmt::format("{}: no margin op '{}'", context_.problem.slug, margin->op)};
  json args = json::object();
  for (const auto& [name, type] : op->inputs) args[name] = input.at(name);
  // Afresh, not memoized: each variant is asked once.
  CallResult distance = context_.reference_call(Request(margin->op, args));
  if (distance.outcome != CallResult::Outcome::kValue || !distance.value.is_number())
    throw JudgeFault{fmt::format("{}: the margin op '{}' gave no distance for a variant of case '{}': {}",
                                 context_.problem.slug, margin->op, context_.test.name, distance.detail)};
  return distance.value.get<double>() >= margin->min;
}

}  // namespace judge
