// Typed YAML values and input generators.
#include "typed_values.hpp"

#include <cmath>
#include <map>
#include <mutex>
#include <fmt/format.h>

#include "yaml_reader.hpp"

namespace judge {
namespace {
using nlohmann::json;

constexpr std::int64_t kMaxGenerated = 1 << 24;

// Generators are validated at load time and kept as a small description,
// {"$generated": {...}}; materialize_input() expands them when a case runs,
// so loading a problem with 262144-token cases stays fast.
constexpr const char* kGeneratedKey = "$generated";

// Reads a generator mapping into its normalized description. `shape` lists
// the keys that give the size (n, or rows and cols).
json read_generator(const YAML::Node& node, const std::string& file, const std::string& key,
                    std::initializer_list<const char*> shape, bool allow_set) {
  MapReader spec(node, file, fmt::format("generator for '{}'", key),
                 {"generate", "n", "rows", "cols", "seed", "low", "high", "mean", "stddev", "value", "start", "step", "set"});
  std::string kind = spec.string("generate");
  json description = {{"generate", kind}};
  std::int64_t size = 1;
  for (const char* dimension : shape) {
    std::int64_t n = spec.integer(dimension);
    if (n < 0 || n > kMaxGenerated)
      fail_at(file, spec.get(dimension), fmt::format("key '{}': expected 0 to {}, got {}", dimension, kMaxGenerated, n));
    description[dimension] = n;
    size *= n;
  }
  if (size > kMaxGenerated)
    fail_at(file, node, fmt::format("generator for '{}': {} values, at most {}", key, size, kMaxGenerated));
  std::vector<const char*> parameters;
  if (kind == "uniform") parameters = {"seed", "low", "high"};
  else if (kind == "normal") parameters = {"seed", "mean", "stddev"};
  else if (kind == "constant") parameters = {"value"};
  else if (kind == "arange") parameters = {"start", "step"};
  else
    fail_at(file, spec.get("generate"),
            fmt::format("key 'generate': expected uniform, normal, constant or arange, got '{}'", kind));
  for (const auto& entry : node) {
    std::string name = entry.first.Scalar();
    bool ok = name == "generate" || (name == "set" && allow_set);
    for (const char* allowed : shape) ok = ok || name == allowed;
    for (const char* allowed : parameters) ok = ok || name == allowed;
    if (!ok) fail_at(file, entry.first, fmt::format("key '{}' does not apply to generator '{}'", name, kind));
  }
  for (const char* parameter : parameters)
    description[parameter] = std::string(parameter) == "seed" ? json(read_unsigned(spec.require(parameter), file, parameter))
                                                              : json(spec.number(parameter));
  if (spec.has("set")) {
    YAML::Node overrides = spec.get("set");
    if (!overrides.IsMap()) fail_at(file, overrides, "key 'set': expected a mapping of index to number");
    json set = json::array();
    for (const auto& entry : overrides) {
      std::int64_t index = read_integer(entry.first, file, "set");
      if (index < 0 || index >= size) fail_at(file, entry.first, fmt::format("key 'set': index {} outside [0, {})", index, size));
      set.push_back(json::array({index, read_number(entry.second, file, "set")}));
    }
    description["set"] = set;
  }
  return json{{kGeneratedKey, description}};
}

std::vector<double> generate_values(const json& description) {
  std::size_t size = 1;
  for (const char* dimension : {"n", "rows", "cols"})
    if (description.contains(dimension)) size *= description[dimension].get<std::size_t>();
  std::vector<double> values(size);
  const std::string kind = description["generate"];
  if (kind == "uniform") {
    SplitMix64 stream(description["seed"].get<std::uint64_t>());
    double low = description["low"], high = description["high"];
    for (double& v : values) v = low + (high - low) * stream.uniform01();
  } else if (kind == "normal") {
    SplitMix64 stream(description["seed"].get<std::uint64_t>());
    double mean = description["mean"], stddev = description["stddev"];
    for (double& v : values) {
      double u1 = 1.0 - stream.uniform01();  // (0, 1]
      double u2 = stream.uniform01();
      v = mean + stddev * std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
    }
  } else if (kind == "constant") {
    double value = description["value"];
    for (double& v : values) v = value;
  } else if (kind == "arange") {
    double start = description["start"], step = description["step"];
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = start + step * static_cast<double>(i);
  }
  if (description.contains("set"))
    for (const json& entry : description["set"]) values[entry[0].get<std::size_t>()] = entry[1].get<double>();
  return values;
}

json expand(const json& description) {
  std::vector<double> values = generate_values(description);
  if (!description.contains("rows")) return json(values);
  std::size_t rows = description["rows"], cols = description["cols"];
  json out = json::array();
  for (std::size_t r = 0; r < rows; ++r)
    out.push_back(json(std::vector<double>(values.begin() + static_cast<long>(r * cols),
                                           values.begin() + static_cast<long>((r + 1) * cols))));
  return out;
}

json read_any(const YAML::Node& node, const std::string& file, const std::string& key) {
  switch (node.Type()) {
    case YAML::NodeType::Sequence: {
      json out = json::array();
      for (const auto& item : node) out.push_back(read_any(item, file, key));
      return out;
    }
    case YAML::NodeType::Map: {
      json out = json::object();
      for (const auto& entry : node)
        out[entry.first.Scalar()] = read_any(entry.second, file, entry.first.Scalar());
      return out;
    }
    case YAML::NodeType::Scalar: {
      const std::string& text = node.Scalar();
      if (node.Tag() == "!") return text;  // quoted: a string
      if (text == "true" || text == "false") return text == "true";
      try {
        return read_integer(node, file, key);
      } catch (const SpecError&) {
      }
      try {
        return read_number(node, file, key);
      } catch (const SpecError&) {
      }
      return text;
    }
    default: return nullptr;
  }
}
}  // namespace

std::uint64_t SplitMix64::next() {
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

bool is_generated(const json& value) { return value.is_object() && value.contains(kGeneratedKey); }

json materialize_input(const json& input) {
  static std::mutex mutex;
  static std::map<std::string, json> expanded;  // by description; inputs repeat across runs of one process
  if (!input.is_object()) return input;
  json out = input;
  for (auto& [name, value] : out.items()) {
    if (!is_generated(value)) continue;
    std::string key = value[kGeneratedKey].dump();
    std::lock_guard<std::mutex> lock(mutex);
    auto found = expanded.find(key);
    if (found == expanded.end()) {
      if (expanded.size() > 64) expanded.clear();  // bound the memory a long `grade` run holds
      found = expanded.emplace(key, expand(value[kGeneratedKey])).first;
    }
    value = found->second;
  }
  return out;
}

double SplitMix64::uniform01() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

json read_typed_value(const YAML::Node& node, ValueType type, const std::string& file, const std::string& key) {
  auto sequence = [&](const char* what) {
    if (!node.IsSequence()) fail_at(file, node, fmt::format("key '{}': expected {}", key, what));
  };
  switch (type) {
    case ValueType::kNumber: return read_number(node, file, key);
    case ValueType::kInteger: return read_integer(node, file, key);
    case ValueType::kSeed: return read_unsigned(node, file, key);
    case ValueType::kBool: return read_bool(node, file, key);
    case ValueType::kString: return read_string(node, file, key);
    case ValueType::kAny: return read_any(node, file, key);
    case ValueType::kDoubles: {
      if (node.IsMap()) return read_generator(node, file, key, {"n"}, /*allow_set=*/true);
      sequence("a list of numbers or a generator");
      json out = json::array();
      for (const auto& item : node) out.push_back(read_number(item, file, key));
      return out;
    }
    case ValueType::kInts: {
      sequence("a list of integers");
      json out = json::array();
      for (const auto& item : node) out.push_back(read_integer(item, file, key));
      return out;
    }
    case ValueType::kSeeds: {
      sequence("a list of unsigned 64-bit integers");
      json out = json::array();
      for (const auto& item : node) out.push_back(read_unsigned(item, file, key));
      return out;
    }
    case ValueType::kMatrix: {
      if (node.IsMap()) return read_generator(node, file, key, {"rows", "cols"}, /*allow_set=*/false);
      sequence("a matrix (a list of rows) or a generator");
      json out = json::array();
      std::size_t columns = 0;
      for (std::size_t r = 0; r < node.size(); ++r) {
        const YAML::Node row = node[r];
        if (!row.IsSequence()) fail_at(file, row, fmt::format("key '{}': row {} is not a list of numbers", key, r));
        if (r == 0) columns = row.size();
        if (row.size() != columns)
          fail_at(file, row, fmt::format("key '{}': row {} has {} entries, row 0 has {}", key, r, row.size(), columns));
        json values = json::array();
        for (const auto& item : row) values.push_back(read_number(item, file, key));
        out.push_back(std::move(values));
      }
      return out;
    }
  }
  return nullptr;
}

}  // namespace judge
