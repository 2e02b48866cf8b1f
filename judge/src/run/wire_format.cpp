// Typed arrays on the runner channel: doubles and integers copied into one
// byte string, tagged as RFC 8746 float64 or sint64 little-endian arrays,
// and decoded back by the channel's own CBOR reader, the doubles kept as
// one typed array (run/number_list.hpp).
#include "run/wire_format.hpp"

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

// Checks that every text string of `value`, map keys included, is valid
// UTF-8, and turns every typed array of int64s into a list of integers: the
// judge reads token ids entry by entry, and they are few. Typed arrays of
// doubles stay as they came (run/number_list.hpp). The reader bounds the
// nesting, so the recursion is bounded too.
bool settle(json* value) {
  if (value->is_string()) return judge_harness::is_valid_utf8(value->get_ref<const json::string_t&>());
  if (value->is_binary() && value->get_binary().subtype() == judge_harness::kInt64ArrayTag) {
    const json::binary_t& bytes = value->get_binary();
    json::array_t list(bytes.size() / sizeof(std::int64_t));
    for (std::size_t i = 0; i < list.size(); ++i) {
      std::int64_t number;
      std::memcpy(&number, bytes.data() + i * sizeof number, sizeof number);
      list[i] = number;
    }
    *value = std::move(list);
    return true;
  }
  if (value->is_object()) {
    for (auto& [key, item] : value->items())
      if (!judge_harness::is_valid_utf8(key) || !settle(&item)) return false;
    return true;
  }
  if (value->is_array())
    for (json& item : *value)
      if (!settle(&item)) return false;
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

bool decode_from_wire(std::string_view payload, json* value, std::string* problem) {
  if (!judge_harness::decode_channel_cbor(payload.data(), payload.size(), value, problem)) return false;
  if (settle(value)) return true;
  *problem = "a text string that is not valid UTF-8";
  return false;
}

}  // namespace judge
