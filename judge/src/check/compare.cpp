// Tolerant comparison of a learner's output with the expected one.
#include "check/compare.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <cmath>

#include "run/number_list.hpp"
#include "run/reply.hpp"

namespace judge {
using nlohmann::json;

std::string tolerance_text(const Tolerance& t) {
  return fmt::format("tolerance atol {} or rtol {}", format_number(t.atol), format_number(t.rtol));
}

namespace {

double as_double(const json& v) { return v.get<double>(); }

// Whether every entry of a list (a JSON list or a typed array) is a number.
bool all_numbers(const json& list) {
  if (is_typed_doubles(list)) return true;
  return std::all_of(list.begin(), list.end(), [](const json& item) { return item.is_number(); });
}

// Compares two lists of doubles entry by entry; reports the first and the
// worst mismatch so a learner sees both where it starts and how bad it gets.
std::optional<std::string> compare_doubles(const json& want_list, const json& got_list, const Tolerance& tolerance,
                                           const std::string& where) {
  const NumberList want(want_list);
  if (!is_list(got_list))
    return fmt::format("{}expected a list of {} numbers, got {}", where, want.size(), json_kind(got_list));
  const NumberList got(got_list);
  if (got.size() != want.size()) return fmt::format("{}expected {} values, got {}", where, want.size(), got.size());
  std::size_t wrong = 0, first = 0, worst = 0;
  double worst_error = -1;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (!got.is_number(i))
      return fmt::format("{}index {}: expected a number, got {}", where, i, json_kind(got_list[i]));
    double w = want[i], g = got[i];
    if (numbers_match(w, g, tolerance)) continue;
    if (wrong++ == 0) first = i;
    double error = std::isnan(g) || std::isnan(w) ? INFINITY : std::fabs(g - w);
    if (std::isnan(error)) error = INFINITY;  // inf - inf
    if (error > worst_error) worst_error = error, worst = i;
  }
  if (wrong == 0) return std::nullopt;
  auto describe = [&](std::size_t i) {
    double w = want[i], g = got[i];
    double error = std::fabs(g - w);
    return fmt::format("index {}: expected {}, got {} (error {})", i, format_number(w), format_number(g),
                       format_number(error));
  };
  std::string message = where + describe(first);
  if (worst != first) message += "; worst " + describe(worst);
  return fmt::format("{}; {} of {} entries wrong", message, wrong, want.size());
}

std::optional<std::string> compare_any(const json& want, const json& got, const Tolerance& tolerance,
                                       const std::string& path);

std::optional<std::string> compare_ints(const json& want, const json& got, const std::string& where) {
  if (!got.is_array())
    return fmt::format("{}expected a list of {} integers, got {}", where, want.size(), json_kind(got));
  if (got.size() != want.size())
    return fmt::format("{}expected {} integers, got {}: {}", where, want.size(), got.size(), brief(got));
  for (std::size_t i = 0; i < want.size(); ++i)
    if (!got[i].is_number_integer() || got[i] != want[i])
      return fmt::format("{}index {}: expected {}, got {} (expected {}, got {})", where, i, want[i].dump(),
                         got[i].dump(), brief(want), brief(got));
  return std::nullopt;
}

std::optional<std::string> compare_any(const json& want, const json& got, const Tolerance& tolerance,
                                       const std::string& path) {
  std::string where = path.empty() ? "" : path + ": ";
  if (want.is_number_float() || (want.is_number() && got.is_number_float())) {
    if (!got.is_number()) return fmt::format("{}expected a number, got {}", where, json_kind(got));
    double w = as_double(want), g = as_double(got);
    if (numbers_match(w, g, tolerance)) return std::nullopt;
    return fmt::format("{}expected {}, got {} (error {})", where, format_number(w), format_number(g),
                       format_number(std::fabs(g - w)));
  }
  if (want.is_number()) {
    if (got.is_number_integer() && got == want) return std::nullopt;
    return fmt::format("{}expected {}, got {}", where, want.dump(), brief(got));
  }
  if (is_list(want)) {
    const std::size_t size = list_size(want);
    if (!is_list(got)) return fmt::format("{}expected a list of {}, got {}", where, size, json_kind(got));
    if (list_size(got) != size) return fmt::format("{}expected {} entries, got {}", where, size, list_size(got));
    if (is_typed_doubles(want) || is_typed_doubles(got)) {
      // One side holds doubles only: the other must too.
      if (!all_numbers(want)) return fmt::format("{}expected {}, got {}", where, brief(want), brief(got));
      return compare_doubles(want, got, tolerance, where);
    }
    for (std::size_t i = 0; i < size; ++i)
      if (auto bad = compare_any(want[i], got[i], tolerance, fmt::format("{}[{}]", path, i))) return bad;
    return std::nullopt;
  }
  if (want.is_object()) {
    if (!got.is_object()) return fmt::format("{}expected a map, got {}", where, json_kind(got));
    for (const auto& [key, value] : want.items()) {
      if (!got.contains(key)) return fmt::format("{}missing '{}'", where, key);
      if (auto bad = compare_any(value, got[key], tolerance, path.empty() ? key : path + "." + key)) return bad;
    }
    return std::nullopt;
  }
  if (got == want) return std::nullopt;
  return fmt::format("{}expected {}, got {}", where, brief(want), brief(got));
}
}  // namespace

bool numbers_match(double want, double got, const Tolerance& tolerance) {
  if (std::isnan(want) || std::isnan(got)) return false;
  if (std::isinf(want) || std::isinf(got)) return want == got;
  double error = std::fabs(got - want);
  return error <= tolerance.atol || error <= tolerance.rtol * std::fabs(want);
}

std::optional<std::string> compare_output(ValueType type, const json& want, const json& got,
                                          const Tolerance& tolerance) {
  switch (type) {
    case ValueType::kDoubles: return compare_doubles(want, got, tolerance, "");
    case ValueType::kInts:
    case ValueType::kSeeds: return compare_ints(want, got, "");
    case ValueType::kMatrix: {
      if (!got.is_array()) return fmt::format("expected a {}-row matrix, got {}", want.size(), json_kind(got));
      if (got.size() != want.size()) return fmt::format("expected {} rows, got {}", want.size(), got.size());
      for (std::size_t r = 0; r < want.size(); ++r)
        if (auto bad = compare_doubles(want[r], got[r], tolerance, fmt::format("row {}: ", r))) return bad;
      return std::nullopt;
    }
    default: return compare_any(want, got, tolerance, "");
  }
}

std::string format_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (value == std::floor(value) && std::fabs(value) < 1e15) return fmt::format("{}", value);
  double magnitude = std::fabs(value);
  if (magnitude >= 1e-4 && magnitude < 1e7) return fmt::format("{:.10g}", value);
  return fmt::format("{:.7g}", value);  // "1e-09", "4.458137e-05": exponent form, no trailing zeros
}

namespace {
// A generator description (package/typed_values.hpp) in words: "5000 values
// from uniform(low -2, high 2, seed 7), [0] = -inf".
std::string generator_text(const json& description) {
  std::string size = description.contains("rows")
                         ? fmt::format("{}x{}", description.value("rows", 0), description.value("cols", 0))
                         : fmt::format("{}", description.value("n", 0));
  std::vector<std::string> parameters;
  for (const char* name : {"low", "high", "mean", "stddev", "value", "start", "step", "seed"})
    if (description.contains(name))
      parameters.push_back(fmt::format("{} {}", name,
                                       description[name].is_number_float()
                                           ? format_number(description[name].get<double>())
                                           : description[name].dump()));
  std::string text =
      fmt::format("{} {} from {}({})", size, description.value("integers", false) ? "integers" : "values",
                  description.value("generate", "?"), fmt::join(parameters, ", "));
  for (const json& entry : description.value("set", json::array()))
    if (entry.is_array() && entry.size() == 2)
      text += fmt::format(", [{}] = {}", entry[0].dump(), format_number(entry[1].get<double>()));
  return text;
}
}  // namespace

std::string brief(const json& value, std::size_t max_items) {
  if (value.is_number_float()) return format_number(value.get<double>());
  if (is_typed_doubles(value)) {
    const NumberList numbers(value);
    std::string out = "[";
    for (std::size_t i = 0; i < numbers.size() && i < max_items; ++i)
      out += (i ? ", " : "") + format_number(numbers[i]);
    if (numbers.size() > max_items) out += fmt::format(", ... ({} in all)", numbers.size());
    return out + "]";
  }
  if (value.is_object() && value.contains("generate") && value["generate"].is_string()) return generator_text(value);
  if (value.is_array()) {
    std::string out = "[";
    for (std::size_t i = 0; i < value.size() && i < max_items; ++i) out += (i ? ", " : "") + brief(value[i], max_items);
    if (value.size() > max_items) out += fmt::format(", ... ({} in all)", value.size());
    return out + "]";
  }
  if (value.is_object()) {
    std::string out = "{";
    bool first = true;
    for (const auto& [key, item] : value.items()) {
      out += (first ? "" : ", ") + key + ": " + brief(item, max_items);
      first = false;
    }
    return out + "}";
  }
  return value.dump();
}

}  // namespace judge
