// Typed arrays on the runner channel: doubles copied in and out of one
// byte string, tagged as RFC 8746 float64 little-endian arrays.
#include "wire_format.hpp"

#include <bit>
#include <cstring>
#include <judge_harness/protocol.hpp>

namespace judge {
using nlohmann::json;

static_assert(std::endian::native == std::endian::little, "typed arrays on the channel are little endian");

namespace {
bool all_floats(const json& list) {
  if (list.empty()) return false;
  for (const json& item : list)
    if (!item.is_number_float()) return false;
  return true;
}
}  // namespace

json with_typed_arrays(const json& value) {
  if (value.is_object()) {
    json out = json::object();
    for (const auto& [key, item] : value.items()) out[key] = with_typed_arrays(item);
    return out;
  }
  if (!value.is_array()) return value;
  if (all_floats(value)) {
    json::binary_t::container_type bytes(value.size() * sizeof(double));
    std::uint8_t* at = bytes.data();
    for (const json& item : value) {
      double number = item.get<double>();
      std::memcpy(at, &number, sizeof number);
      at += sizeof number;
    }
    return json::binary(std::move(bytes), judge_harness::kFloat64ArrayTag);
  }
  json out = json::array();
  for (const json& item : value) out.push_back(with_typed_arrays(item));
  return out;
}

bool expand_typed_arrays(json* value) {
  if (value->is_binary()) {
    const json::binary_t& bytes = value->get_binary();
    if (!bytes.has_subtype() || bytes.subtype() != judge_harness::kFloat64ArrayTag || bytes.size() % sizeof(double) != 0)
      return false;
    std::vector<double> numbers(bytes.size() / sizeof(double));
    std::memcpy(numbers.data(), bytes.data(), bytes.size());
    *value = std::move(numbers);
    return true;
  }
  if (value->is_object() || value->is_array()) {
    for (json& item : *value)
      if (!expand_typed_arrays(&item)) return false;
  }
  return true;
}

}  // namespace judge
