// Reading a case's inputs and expected outputs from YAML according to the
// types the problem declares, including generated inputs.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "package/value_type.hpp"

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

// A variant of a case's `input` as its file gives it (generators as
// descriptions, before materialize_input): every seeded generator (uniform,
// normal) draws from derived_seed(its seed, variant) instead, and so does
// each unsigned integer at a path of `reseeded` ("model.seed": member seed
// of input model), so that the variant is an input of the same kind and
// size that nothing has seen. Variant 0 is `input` itself. Throws SpecError
// when a path of `reseeded` names no unsigned integer of `input`.
nlohmann::json input_variant(const nlohmann::json& input, std::uint64_t variant,
                             const std::vector<std::string>& reseeded);

// True when input_variant changes `input`: it has a seeded generator, or
// `reseeded` names a seed in it.
bool has_seeds_to_vary(const nlohmann::json& input, const std::vector<std::string>& reseeded);

// True when `path` (members joined by '.') names an unsigned integer of
// `input`, which input_variant can reseed.
bool names_a_seed(const nlohmann::json& input, const std::string& path);

// The numbers that a generated list input describes (a generator
// description, not a matrix's), made without a JSON number per entry:
// doubles, or int64s for integers. nullopt for any other value.
struct GeneratedList {
  bool integers = false;
  std::vector<double> doubles;
  std::vector<std::int64_t> ints;
};
std::optional<GeneratedList> generated_list(const nlohmann::json& value);

// The seed that variant `variant` of a seeded input draws from instead of
// `seed`: `seed` itself for variant 0; otherwise a splitmix64 output,
// distinct for distinct variants of one seed.
std::uint64_t derived_seed(std::uint64_t seed, std::uint64_t variant);

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
