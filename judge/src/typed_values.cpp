// Typed YAML values and input generators.
#include "typed_values.hpp"

#include <cmath>
#include <fmt/format.h>

#include "yaml_reader.hpp"

namespace judge {
namespace {
using nlohmann::json;

constexpr std::int64_t kMaxGenerated = 1 << 24;

// Fills `values` with the distribution a generator mapping names. `shape`
// lists the keys that give the size (n, or rows and cols), checked elsewhere.
void fill_generated(const MapReader& spec, const std::string& file, std::initializer_list<const char*> shape,
                    std::vector<double>& values) {
  const YAML::Node& node = spec.node();
  std::string kind = spec.string("generate");
  auto allow_only = [&](std::initializer_list<const char*> keys) {
    for (const auto& entry : node) {
      std::string name = entry.first.Scalar();
      bool ok = name == "generate" || name == "set";
      for (const char* allowed : shape) ok = ok || name == allowed;
      for (const char* allowed : keys) ok = ok || name == allowed;
      if (!ok) fail_at(file, entry.first, fmt::format("key '{}' does not apply to generator '{}'", name, kind));
    }
  };
  if (kind == "uniform") {
    allow_only({"seed", "low", "high"});
    SplitMix64 stream(read_unsigned(spec.require("seed"), file, "seed"));
    double low = spec.number("low"), high = spec.number("high");
    for (double& v : values) v = low + (high - low) * stream.uniform01();
  } else if (kind == "normal") {
    allow_only({"seed", "mean", "stddev"});
    SplitMix64 stream(read_unsigned(spec.require("seed"), file, "seed"));
    double mean = spec.number("mean"), stddev = spec.number("stddev");
    for (double& v : values) {
      double u1 = 1.0 - stream.uniform01();  // (0, 1]
      double u2 = stream.uniform01();
      v = mean + stddev * std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
    }
  } else if (kind == "constant") {
    allow_only({"value"});
    double value = spec.number("value");
    for (double& v : values) v = value;
  } else if (kind == "arange") {
    allow_only({"start", "step"});
    double start = spec.number("start"), step = spec.number("step");
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = start + step * static_cast<double>(i);
  } else {
    fail_at(file, spec.get("generate"),
            fmt::format("key 'generate': expected uniform, normal, constant or arange, got '{}'", kind));
  }
}

std::int64_t generated_size(const MapReader& spec, const std::string& file, const char* key, std::int64_t limit) {
  std::int64_t n = spec.integer(key);
  if (n < 0 || n > limit) fail_at(file, spec.get(key), fmt::format("key '{}': expected 0 to {}, got {}", key, limit, n));
  return n;
}

json generate_doubles(const YAML::Node& node, const std::string& file, const std::string& key) {
  MapReader spec(node, file, fmt::format("generator for '{}'", key),
                 {"generate", "n", "seed", "low", "high", "mean", "stddev", "value", "start", "step", "set"});
  std::int64_t n = generated_size(spec, file, "n", kMaxGenerated);
  std::vector<double> values(static_cast<std::size_t>(n));
  fill_generated(spec, file, {"n"}, values);
  if (spec.has("set")) {
    YAML::Node overrides = spec.get("set");
    if (!overrides.IsMap()) fail_at(file, overrides, "key 'set': expected a mapping of index to number");
    for (const auto& entry : overrides) {
      std::int64_t index = read_integer(entry.first, file, "set");
      if (index < 0 || index >= n)
        fail_at(file, entry.first, fmt::format("key 'set': index {} outside [0, {})", index, n));
      values[static_cast<std::size_t>(index)] = read_number(entry.second, file, "set");
    }
  }
  return json(values);
}

// A generated matrix: rows x cols numbers from one stream, filled row by row.
json generate_matrix(const YAML::Node& node, const std::string& file, const std::string& key) {
  MapReader spec(node, file, fmt::format("generator for '{}'", key),
                 {"generate", "rows", "cols", "seed", "low", "high", "mean", "stddev", "value", "start", "step"});
  std::int64_t rows = generated_size(spec, file, "rows", kMaxGenerated);
  std::int64_t cols = generated_size(spec, file, "cols", kMaxGenerated);
  if (rows * cols > kMaxGenerated)
    fail_at(file, node, fmt::format("generator for '{}': rows x cols is {}, at most {}", key, rows * cols, kMaxGenerated));
  std::vector<double> values(static_cast<std::size_t>(rows * cols));
  fill_generated(spec, file, {"rows", "cols"}, values);
  json out = json::array();
  for (std::int64_t r = 0; r < rows; ++r)
    out.push_back(json(std::vector<double>(values.begin() + r * cols, values.begin() + (r + 1) * cols)));
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
      if (node.IsMap()) return generate_doubles(node, file, key);
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
      if (node.IsMap()) return generate_matrix(node, file, key);
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
