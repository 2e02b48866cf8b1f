// A runner's reply checked against what the harness writes, before any of
// it reaches a checker.
#include "run/reply.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "run/number_list.hpp"
#include "run/wire_format.hpp"

namespace judge {
namespace {
using nlohmann::json;

bool is_text(const json& reply, const char* key) { return reply.contains(key) && reply[key].is_string(); }

bool is_unsigned(const json& value) {
  return value.is_number_unsigned() || (value.is_number_integer() && value.get<std::int64_t>() >= 0);
}

bool holds_a_number(const json& value) { return value.is_number(); }

// The first entry of `list` that `fits` refuses, as a reason; nullopt when
// every entry fits. A typed array holds doubles: it fits when
// `doubles_fit`, and is a misfit as a whole otherwise.
template <typename Fits>
std::optional<std::string> first_misfit(const json& list, Fits fits, bool doubles_fit) {
  if (is_typed_doubles(list))
    return doubles_fit ? std::nullopt
                       : std::optional<std::string>(fmt::format("a list of {} doubles", list_size(list)));
  for (std::size_t i = 0; i < list.size(); ++i)
    if (!fits(list[i])) return fmt::format("a list whose entry {} is {}", i, json_kind(list[i]));
  return std::nullopt;
}

std::optional<std::string> matrix_misfit(const json& rows) {
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (!is_list(rows[r])) return fmt::format("a list whose row {} is {}", r, json_kind(rows[r]));
    if (list_size(rows[r]) != list_size(rows[0]))
      return fmt::format("a matrix whose row {} has {} entries and row 0 {}", r, list_size(rows[r]),
                         list_size(rows[0]));
    if (auto misfit = first_misfit(rows[r], holds_a_number, /*doubles_fit=*/true))
      return fmt::format("a matrix whose row {} is {}", r, *misfit);
  }
  return std::nullopt;
}

// What the harness writes for `type`, for messages.
const char* expected_text(ValueType type) {
  switch (type) {
    case ValueType::kNumber: return "a number";
    case ValueType::kInteger: return "an integer of at most 64 bits";
    case ValueType::kSeed: return "an unsigned integer";
    case ValueType::kDoubles: return "a list of numbers";
    case ValueType::kInts: return "a list of integers of at most 64 bits";
    case ValueType::kSeeds: return "a list of unsigned integers";
    case ValueType::kMatrix: return "a matrix (a list of rows of numbers, all of one length)";
    case ValueType::kBool: return "a bool";
    case ValueType::kString: return "a string";
    case ValueType::kAny: return "any value";
  }
  return "any value";
}

// Why `value` is not of `type`, as "what it is"; nullopt when it is.
std::optional<std::string> misfit(ValueType type, const json& value) {
  auto scalar = [&](bool fits) { return fits ? std::nullopt : std::optional<std::string>(json_kind(value)); };
  if (type == ValueType::kAny) return std::nullopt;
  if (type == ValueType::kNumber) return scalar(value.is_number());
  if (type == ValueType::kInteger) return scalar(fits_int64(value));
  if (type == ValueType::kSeed) return scalar(is_unsigned(value));
  if (type == ValueType::kBool) return scalar(value.is_boolean());
  if (type == ValueType::kString) return scalar(value.is_string());
  if (!is_list(value)) return json_kind(value);
  if (type == ValueType::kDoubles) return first_misfit(value, holds_a_number, /*doubles_fit=*/true);
  if (type == ValueType::kInts) return first_misfit(value, fits_int64, /*doubles_fit=*/false);
  if (type == ValueType::kSeeds) return first_misfit(value, is_unsigned, /*doubles_fit=*/false);
  if (is_typed_doubles(value)) return fmt::format("a list of {} doubles", list_size(value));
  return matrix_misfit(value);
}

// Why `list` is not what the harness writes for the changed inputs: a
// non-empty list of {input, matrix, entry: [row, col], was, now} or
// {input, matrix, shape_was: [rows, cols], shape_now: [rows, cols]}.
std::optional<std::string> changed_inputs_problem(const json& list) {
  auto pair = [](const json& value) {
    return value.is_array() && value.size() == 2 && is_unsigned(value[0]) && is_unsigned(value[1]);
  };
  if (!list.is_array() || list.empty()) return "changed inputs that are not a non-empty list";
  for (const json& fact : list) {
    const bool named =
        fact.is_object() && is_text(fact, "input") && fact.contains("matrix") && fact["matrix"].is_boolean();
    const bool entry = named && fact.size() == 5 && fact.contains("entry") && pair(fact["entry"]) &&
                       fact.contains("was") && fact["was"].is_number() && fact.contains("now") &&
                       fact["now"].is_number();
    const bool shape = named && fact.size() == 4 && fact.contains("shape_was") && pair(fact["shape_was"]) &&
                       fact.contains("shape_now") && pair(fact["shape_now"]);
    if (!entry && !shape)
      return "a changed input that is not {input, matrix, entry, was, now} or {input, matrix, shape_was, shape_now}";
  }
  return std::nullopt;
}
}  // namespace

std::string malformed_reply(std::string_view why, std::string_view op) {
  if (op.empty()) return fmt::format("malformed reply: {}", why);
  return fmt::format("malformed reply to '{}': {}", op, why);
}

bool read_reply(json& reply, CallResult* result, std::string* problem) {
  if (!reply.is_object()) return *problem = fmt::format("{}, not a map", json_kind(reply)), false;
  // The inputs the learner's code changed ride along with a value or an
  // exception (judge_harness/input_watch.hpp); the form is judged without them.
  const bool reports_changes = reply.contains("changed_inputs");
  if (reports_changes) {
    if (!reply.contains("value") && !reply.contains("exception"))
      return *problem = "changed inputs beside neither a value nor an exception", false;
    if (auto why = changed_inputs_problem(reply["changed_inputs"])) return *problem = *why, false;
  }
  const std::size_t keys = reply.size() - (reports_changes ? 1 : 0);
  if (keys == 1 && reply.contains("value")) {
    result->outcome = CallResult::Outcome::kValue;
    result->value = std::move(reply["value"]);
    if (reports_changes) result->changed_inputs = std::move(reply["changed_inputs"]);
    return true;
  }
  if (keys == 1 && reply.contains("harness_error")) {
    if (!is_text(reply, "harness_error")) return *problem = "a harness error that is not a string", false;
    result->outcome = CallResult::Outcome::kHarnessError;
    result->detail = reply["harness_error"].get<std::string>();
    return true;
  }
  if (keys == 3 && reply.contains("exception")) {
    const json& kind = reply["exception"];
    if (kind != "invalid_argument" && kind != "bad_alloc" && kind != "other")
      return *problem = "an exception of a kind the harness does not write", false;
    if (!is_text(reply, "type") || !is_text(reply, "what"))
      return *problem = "an exception whose type or what() is not a string", false;
    result->outcome = CallResult::Outcome::kException;
    result->exception_kind = kind.get<std::string>();
    result->exception_type = reply["type"].get<std::string>();
    result->what = reply["what"].get<std::string>();
    if (reports_changes) result->changed_inputs = std::move(reply["changed_inputs"]);
    return true;
  }
  *problem =
      fmt::format("a map of {} keys that is none of {{value}}, {{exception, type, what}} or {{harness_error}}", keys);
  return false;
}

std::optional<std::string> value_type_problem(ValueType type, const json& value) {
  std::optional<std::string> what_it_is = misfit(type, value);
  if (!what_it_is) return std::nullopt;
  return fmt::format("its value is {}, where the op returns {}", *what_it_is, expected_text(type));
}

bool is_int(const json& value) {
  if (!fits_int64(value)) return false;
  const std::int64_t number = value.get<std::int64_t>();
  return number >= std::numeric_limits<int>::min() && number <= std::numeric_limits<int>::max();
}

std::string json_kind(const json& value) {
  if (is_list(value)) return fmt::format("a list of {}", list_size(value));
  if (value.is_number_float()) return std::isnan(value.get<double>()) ? "NaN" : "a number";
  if (value.is_number()) return fits_int64(value) ? "an integer" : "an integer beyond int64";
  if (value.is_object()) return "a map";
  if (value.is_string()) return "a string";
  if (value.is_boolean()) return "a bool";
  return "nothing";
}

}  // namespace judge
