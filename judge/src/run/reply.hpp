// What a runner's reply may hold (judge_harness/protocol.hpp): a map that
// is exactly {value}, {exception: kind, type: text, what: text} or
// {harness_error: text}, the first two perhaps with the inputs the
// learner's code changed (changed_inputs), and a value of the type its op
// declares. The
// harness writes nothing else, so anything else was forged by the code in
// the runner (it shares the runner's process and can write on the judge's
// channel): a malformed reply, the learner's runtime_error, never a value
// handed to a checker or the judge's own fault.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "package/value_type.hpp"
#include "run/runner.hpp"

namespace judge {

// The detail of a malformed call: "malformed reply: WHY", or "malformed
// reply to 'OP': WHY" when `op` is given.
std::string malformed_reply(std::string_view why, std::string_view op = {});

// Moves a decoded reply into *result: outcome kValue, kException or
// kHarnessError with its fields. False, with *problem saying what is wrong
// (and *result untouched), when `reply` is none of the three forms: not a
// map, other or missing keys, an exception kind the harness does not write,
// a type, what() or harness error that is not text.
bool read_reply(nlohmann::json& reply, CallResult* result, std::string* problem);

// Why `value` cannot be what the harness returns from an op whose output
// is `type` (a string where a list of numbers is due, an integer beyond
// int64, NaN where an integer is due, a ragged matrix); nullopt when it can
// (always for `any`, whose shape the checker judges).
std::optional<std::string> value_type_problem(ValueType type, const nlohmann::json& value);

// True for an integer in the range of an int: a token id the learner's
// code could have returned (a wider one was forged).
bool is_int(const nlohmann::json& value);

// What kind of JSON value `value` is, for messages: "a list of 3", "a
// number", "NaN", "an integer", "an integer beyond int64", "a map", "a
// string", "a bool", "nothing".
std::string json_kind(const nlohmann::json& value);

}  // namespace judge
