// The judge's side of the typed arrays on the runner channel (see
// judge_harness/protocol.hpp): lists of floating-point numbers, and lists of
// integers that fit in int64, travel as one byte string of doubles or int64s
// instead of one CBOR item per number.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace judge {

// A copy of `value` in which every non-empty list of floating-point numbers
// or of int64-sized integers is a typed array, ready for to_cbor.
nlohmann::json with_typed_arrays(const nlohmann::json& value);

// `numbers` as the channel's typed array (float64 or sint64), which
// to_cbor writes as it is and with_typed_arrays passes through: for a list
// made in bulk, without a JSON number per entry.
nlohmann::json typed_array(const std::vector<double>& numbers);
nlohmann::json typed_array(const std::vector<std::int64_t>& numbers);

// Decodes a frame's CBOR payload (judge_harness/channel_cbor.hpp): a typed
// array of doubles stays one (read it with run/number_list.hpp), a typed
// array of int64s becomes a list of integers. False, with *problem saying why, when
// the payload is not what either side of the channel writes: a byte string
// that is not a float64 or sint64 typed array, an indefinite length,
// nesting beyond judge_harness::kMaxChannelDepth, trailing bytes, a text
// string (or map key) that is not valid UTF-8 (judge_harness/utf8.hpp).
bool decode_from_wire(std::string_view payload, nlohmann::json* value, std::string* problem);

// True when `value` is an integer that fits in an int64 (what the wire's
// integers are).
bool fits_int64(const nlohmann::json& value);

}  // namespace judge
