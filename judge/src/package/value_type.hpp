// The types a problem's ops declare for their inputs and outputs
// (problem.yaml `ops:`), which decide how values are read and compared.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace judge {

enum class ValueType { kNumber, kInteger, kSeed, kDoubles, kInts, kSeeds, kMatrix, kBool, kString, kAny };

// "number", "doubles", ...; nullopt for an unknown name.
std::optional<ValueType> value_type_from_name(const std::string& name);

// Every type's name, in the order of the enum, for messages.
std::vector<std::string> value_type_names();

}  // namespace judge
