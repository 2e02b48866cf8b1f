// The names of value types as problem.yaml spells them.
#include "package/value_type.hpp"

#include <utility>

namespace judge {
namespace {
const std::vector<std::pair<std::string, ValueType>> kTypeNames = {
    {"number", ValueType::kNumber},   {"integer", ValueType::kInteger}, {"seed", ValueType::kSeed},
    {"doubles", ValueType::kDoubles}, {"ints", ValueType::kInts},       {"seeds", ValueType::kSeeds},
    {"matrix", ValueType::kMatrix},   {"bool", ValueType::kBool},       {"string", ValueType::kString},
    {"any", ValueType::kAny}};
}  // namespace

std::optional<ValueType> value_type_from_name(const std::string& name) {
  for (const auto& [type_name, type] : kTypeNames)
    if (type_name == name) return type;
  return std::nullopt;
}

std::vector<std::string> value_type_names() {
  std::vector<std::string> names;
  for (const auto& entry : kTypeNames) names.push_back(entry.first);
  return names;
}

}  // namespace judge
