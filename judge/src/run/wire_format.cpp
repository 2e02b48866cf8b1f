// Typed arrays on the runner channel: doubles and integers copied in and out
// of one byte string, tagged as RFC 8746 float64 or sint64 little-endian
// arrays.
#include "run/wire_format.hpp"

#include <bit>
#include <cstring>
#include <judge_harness/protocol.hpp>
#include <limits>

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

bool fits_int64(const json& item) {
  if (item.is_number_unsigned())
    return item.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  return item.is_number_integer();
}

bool all_int64(const json& list) {
  if (list.empty()) return false;
  for (const json& item : list)
    if (!fits_int64(item)) return false;
  return true;
}

// The list's numbers as T, packed into one byte string with the given tag.
template <typename T>
json packed(const json& list, std::uint8_t tag) {
  json::binary_t::container_type bytes(list.size() * sizeof(T));
  std::uint8_t* at = bytes.data();
  for (const json& item : list) {
    T number = item.get<T>();
    std::memcpy(at, &number, sizeof number);
    at += sizeof number;
  }
  return json::binary(std::move(bytes), tag);
}

// The byte string's numbers as a list; false when its size is not a
// multiple of sizeof(T).
template <typename T>
bool unpack(const json::binary_t& bytes, json* value) {
  if (bytes.size() % sizeof(T) != 0) return false;
  std::vector<T> numbers(bytes.size() / sizeof(T));
  std::memcpy(numbers.data(), bytes.data(), bytes.size());
  *value = std::move(numbers);
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
  if (all_floats(value)) return packed<double>(value, judge_harness::kFloat64ArrayTag);
  if (all_int64(value)) return packed<std::int64_t>(value, judge_harness::kInt64ArrayTag);
  json out = json::array();
  for (const json& item : value) out.push_back(with_typed_arrays(item));
  return out;
}

bool expand_typed_arrays(json* value) {
  if (value->is_binary()) {
    // Copied out first: assigning the list replaces the byte string.
    const json::binary_t bytes = std::move(value->get_binary());
    if (!bytes.has_subtype()) return false;
    if (bytes.subtype() == judge_harness::kFloat64ArrayTag) return unpack<double>(bytes, value);
    if (bytes.subtype() == judge_harness::kInt64ArrayTag) return unpack<std::int64_t>(bytes, value);
    return false;
  }
  if (value->is_object() || value->is_array()) {
    for (json& item : *value)
      if (!expand_typed_arrays(&item)) return false;
  }
  return true;
}

}  // namespace judge
