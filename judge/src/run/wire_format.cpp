// Typed arrays on the runner channel: doubles and integers copied into one
// byte string, tagged as RFC 8746 float64 or sint64 little-endian arrays,
// and decoded back by the channel's own CBOR reader.
#include "run/wire_format.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <judge_harness/channel_cbor.hpp>
#include <judge_harness/protocol.hpp>
#include <judge_harness/utf8.hpp>
#include <limits>

namespace judge {
using nlohmann::json;

static_assert(std::endian::native == std::endian::little, "typed arrays on the channel are little endian");

bool fits_int64(const json& value) {
  if (value.is_number_unsigned())
    return value.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  return value.is_number_integer();
}

namespace {
bool all_floats(const json& list) {
  if (list.empty()) return false;
  for (const json& item : list)
    if (!item.is_number_float()) return false;
  return true;
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

// `numbers` copied into one byte string with the given tag.
template <typename T>
json raw_packed(const std::vector<T>& numbers, std::uint8_t tag) {
  const auto* first = reinterpret_cast<const std::uint8_t*>(numbers.data());
  return json::binary(json::binary_t::container_type(first, first + numbers.size() * sizeof(T)), tag);
}

// True when every text string of `value`, map keys included, is valid
// UTF-8. The reader bounds the nesting, so the recursion is bounded too.
bool all_text_valid(const json& value) {
  if (value.is_string()) return judge_harness::is_valid_utf8(value.get_ref<const json::string_t&>());
  if (value.is_object()) {
    for (const auto& [key, item] : value.items())
      if (!judge_harness::is_valid_utf8(key) || !all_text_valid(item)) return false;
    return true;
  }
  if (value.is_array())
    for (const json& item : value)
      if (!all_text_valid(item)) return false;
  return true;
}

}  // namespace

json typed_array(const std::vector<double>& numbers) { return raw_packed(numbers, judge_harness::kFloat64ArrayTag); }

json typed_array(const std::vector<std::int64_t>& numbers) {
  return raw_packed(numbers, judge_harness::kInt64ArrayTag);
}

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

void free_number_lists(json* value) {
  if (value->is_object()) {
    for (json& item : *value) free_number_lists(&item);
    return;
  }
  if (!value->is_array()) return;
  json::array_t& list = value->get_ref<json::array_t&>();
  for (json& item : list)
    if (item.is_structured()) free_number_lists(&item);
  if (std::none_of(list.begin(), list.end(), [](const json& item) { return item.is_structured(); })) {
    list.clear();
    list.shrink_to_fit();
  }
}

bool decode_from_wire(std::string_view payload, json* value, std::string* problem) {
  if (!judge_harness::decode_channel_cbor(payload.data(), payload.size(), judge_harness::TypedArrays::kExpand, value,
                                          problem))
    return false;
  if (all_text_valid(*value)) return true;
  *problem = "a text string that is not valid UTF-8";
  return false;
}

}  // namespace judge
