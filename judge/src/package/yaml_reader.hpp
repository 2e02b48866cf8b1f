// Strict reading of YAML problem files: every error names file:line:column,
// the key, and what was expected. yaml-cpp's exceptions stop here.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "util/errors.hpp"

namespace judge {

// Parses `path`; a syntax error, a key repeated within a mapping
// (yaml_duplicate_keys.hpp) or an unreadable file throws SpecError (a
// syntax error's message shows the line and a caret: yaml_syntax_error.hpp).
YAML::Node load_yaml_file(const std::string& path);

// Parses `text`, which messages call `place` ("--input"); a syntax error
// or a repeated key throws SpecError as load_yaml_file's does.
YAML::Node load_yaml_text(const std::string& text, const std::string& place);

// Throws SpecError("file:line:column: message") at `node`'s position.
[[noreturn]] void fail_at(const std::string& file, const YAML::Node& node, const std::string& message);

// A mapping whose keys are checked against a fixed set.
class MapReader {
 public:
  // Throws when `node` is not a mapping or has a key outside `allowed`.
  // `what` names the mapping in messages ("problem", "case 'x'", "limits").
  MapReader(const YAML::Node& node, std::string file, std::string what, std::vector<std::string> allowed);

  bool has(const std::string& key) const;
  YAML::Node get(const std::string& key) const;      // null node when absent
  YAML::Node require(const std::string& key) const;  // throws when absent

  std::string string(const std::string& key) const;  // required string
  std::string string_or(const std::string& key, const std::string& fallback) const;
  std::int64_t integer(const std::string& key) const;
  double number(const std::string& key) const;

 private:
  YAML::Node node_;
  std::string file_;
  std::string what_;
};

// A scalar's text as YAML spells an integer or a number (.inf, -.inf and
// .nan included); nullopt when it is not one. The readers below throw
// instead, naming the file, line and key; these are for telling what an
// untyped scalar is without the cost of an error for every non-integer.
std::optional<std::int64_t> parse_integer(const std::string& text);
std::optional<double> parse_number(const std::string& text);

// Scalar readers used by the typed value conversion; `key` names the value.
std::string read_string(const YAML::Node& node, const std::string& file, const std::string& key);
std::int64_t read_integer(const YAML::Node& node, const std::string& file, const std::string& key);
std::uint64_t read_unsigned(const YAML::Node& node, const std::string& file, const std::string& key);
double read_number(const YAML::Node& node, const std::string& file, const std::string& key);
bool read_bool(const YAML::Node& node, const std::string& file, const std::string& key);

}  // namespace judge
