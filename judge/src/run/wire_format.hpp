// The judge's side of the typed arrays on the runner channel (see
// judge_harness/protocol.hpp): lists of floating-point numbers, and lists of
// integers that fit in int64, travel as one byte string of doubles or int64s
// instead of one CBOR item per number.
#pragma once

#include <nlohmann/json.hpp>

namespace judge {

// A copy of `value` in which every non-empty list of floating-point numbers
// or of int64-sized integers is a typed array, ready for to_cbor.
nlohmann::json with_typed_arrays(const nlohmann::json& value);

// Turns the typed arrays in `value` (from_cbor with tags stored) back into
// lists of numbers. False when `value` holds a byte string that is not a
// float64 or sint64 typed array (a reply the harness did not write).
bool expand_typed_arrays(nlohmann::json* value);

}  // namespace judge
