// Reading a case's inputs and expected outputs from YAML according to the
// types the problem declares, including generated inputs.
#pragma once

#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>
#include <string>

#include "spec/value_type.hpp"

namespace judge {

// Converts `node` to JSON as `type`; a `doubles` value may be a generator
// mapping (see docs/problem-format.md). Throws SpecError naming `key`.
nlohmann::json read_typed_value(const YAML::Node& node, ValueType type, const std::string& file,
                                const std::string& key);

// A case input with every generator description ({"$generated": ...})
// replaced by the values it describes. Thread-safe; memoized.
nlohmann::json materialize_input(const nlohmann::json& input);

// `value` (a case's input, say) as one line of YAML flow style, that
// read_typed_value reads back: a generator as its description
// ({generate: uniform, n: 1000, seed: 1, ...}), infinities as .inf and -.inf.
std::string flow_yaml(const nlohmann::json& value);

// True for a generator description.
bool is_generated(const nlohmann::json& value);

// A case input as its problem file gives it: each generated input as its
// generator ({"generate": "uniform", "n": 131072, "seed": 7, ...}).
nlohmann::json input_as_written(const nlohmann::json& input);

// The deterministic stream behind generators: splitmix64, so a seed means
// the same numbers on every machine and compiler.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  double uniform01();  // in [0, 1), 53 random bits
 private:
  std::uint64_t state_;
};

}  // namespace judge
