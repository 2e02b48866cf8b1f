// Strict YAML reading with file:line:column errors.
#include "package/yaml_reader.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <optional>

#include "package/yaml_duplicate_keys.hpp"
#include "package/yaml_syntax_error.hpp"
#include "util/files.hpp"
#include "util/text.hpp"

namespace judge {
namespace {
std::string describe_node(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null: return "nothing";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Scalar: return "'" + node.Scalar() + "'";
    default: return "an undefined value";
  }
}

[[noreturn]] void expected(const YAML::Node& node, const std::string& file, const std::string& key,
                           const std::string& what) {
  fail_at(file, node, fmt::format("key '{}': expected {}, got {}", key, what, describe_node(node)));
}
}  // namespace

YAML::Node load_yaml_file(const std::string& path) {
  std::optional<std::string> text = read_file(path);
  if (!text) throw SpecError{fmt::format("{}: cannot read the file", display_path(path))};
  return load_yaml_text(*text, display_path(path));
}

YAML::Node load_yaml_text(const std::string& text, const std::string& place) {
  try {
    YAML::Node root = YAML::Load(text);
    check_duplicate_keys(place, root);
    return root;
  } catch (const YAML::ParserException& e) {
    throw SpecError{describe_yaml_syntax_error(place, text, e)};
  }
}

void fail_at(const std::string& file, const YAML::Node& node, const std::string& message) {
  YAML::Mark mark = node.IsDefined() ? node.Mark() : YAML::Mark::null_mark();
  if (mark.line < 0) throw SpecError{fmt::format("{}: {}", display_path(file), message)};
  throw SpecError{fmt::format("{}:{}:{}: {}", display_path(file), mark.line + 1, mark.column + 1, message)};
}

MapReader::MapReader(const YAML::Node& node, std::string file, std::string what, std::vector<std::string> allowed)
    : node_(node), file_(std::move(file)), what_(std::move(what)) {
  if (!node_.IsMap()) fail_at(file_, node_, fmt::format("{}: expected a mapping, got {}", what_, describe_node(node_)));
  for (const auto& entry : node_) {
    const std::string key = entry.first.Scalar();
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    std::string best = nearest_name(key, allowed);
    if (!best.empty())
      fail_at(file_, entry.first, fmt::format("unknown key '{}' in {} (did you mean '{}'?)", key, what_, best));
    fail_at(file_, entry.first,
            fmt::format("unknown key '{}' in {}; expected one of: {}", key, what_, fmt::join(allowed, ", ")));
  }
}

bool MapReader::has(const std::string& key) const { return static_cast<bool>(node_[key]); }

YAML::Node MapReader::get(const std::string& key) const { return node_[key]; }

YAML::Node MapReader::require(const std::string& key) const {
  YAML::Node value = node_[key];
  if (!value) fail_at(file_, node_, fmt::format("missing key '{}' in {}", key, what_));
  return value;
}

std::string MapReader::string(const std::string& key) const { return read_string(require(key), file_, key); }

std::string MapReader::string_or(const std::string& key, const std::string& fallback) const {
  return has(key) ? read_string(get(key), file_, key) : fallback;
}

std::int64_t MapReader::integer(const std::string& key) const { return read_integer(require(key), file_, key); }

double MapReader::number(const std::string& key) const { return read_number(require(key), file_, key); }

std::string read_string(const YAML::Node& node, const std::string& file, const std::string& key) {
  if (!node.IsScalar()) expected(node, file, key, "a string");
  return node.Scalar();
}

std::optional<std::int64_t> parse_integer(const std::string& text) {
  char* end = nullptr;
  errno = 0;
  long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE) return std::nullopt;
  return value;
}

std::int64_t read_integer(const YAML::Node& node, const std::string& file, const std::string& key) {
  if (!node.IsScalar()) expected(node, file, key, "an integer");
  std::optional<std::int64_t> value = parse_integer(node.Scalar());
  if (!value) expected(node, file, key, "an integer");
  return *value;
}

std::uint64_t read_unsigned(const YAML::Node& node, const std::string& file, const std::string& key) {
  if (!node.IsScalar()) expected(node, file, key, "an unsigned 64-bit integer");
  const std::string& text = node.Scalar();
  char* end = nullptr;
  errno = 0;
  unsigned long long value = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || text[0] == '-' || *end != '\0' || errno == ERANGE)
    expected(node, file, key, "an unsigned 64-bit integer");
  return value;
}

std::optional<double> parse_number(const std::string& text) {
  std::string lower = text;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower == ".inf" || lower == "+.inf") return std::numeric_limits<double>::infinity();
  if (lower == "-.inf") return -std::numeric_limits<double>::infinity();
  if (lower == ".nan") return std::numeric_limits<double>::quiet_NaN();
  char* end = nullptr;
  errno = 0;
  double value = std::strtod(text.c_str(), &end);
  // strtod also accepts "inf", "nan" and hex floats, and turns 1e999 into
  // inf: insist on YAML's spelling for infinities.
  bool plain = text.find_first_of("iInNxX") == std::string::npos;
  bool overflow = errno == ERANGE && std::isinf(value);
  if (text.empty() || *end != '\0' || !plain || overflow) return std::nullopt;
  return value;
}

double read_number(const YAML::Node& node, const std::string& file, const std::string& key) {
  if (!node.IsScalar()) expected(node, file, key, "a number");
  std::optional<double> value = parse_number(node.Scalar());
  if (!value) expected(node, file, key, "a number (.inf, -.inf and .nan allowed)");
  return *value;
}

bool read_bool(const YAML::Node& node, const std::string& file, const std::string& key) {
  if (node.IsScalar()) {
    if (node.Scalar() == "true") return true;
    if (node.Scalar() == "false") return false;
  }
  expected(node, file, key, "true or false");
}

}  // namespace judge
