// The JSON forms of results, written and read in this one place.
//
// The public form is what `--format json` prints (docs/cli.md): the
// problem, its verdict, the judged file, a message when there is one, and
// per case its name, visibility, verdict, time in ms (to the microsecond),
// message and hint, and for a failed case its note, input (non-finite
// numbers as "inf", "-inf", "nan") and details; and the shrunk examples,
// when there are any (each from_case, failure_kind, shrunk, and either
// reason or sizes, input, message and details). The full form adds the
// rest a TestResult holds (printed output, failure kind, returned value,
// slowest call) but not the note and input, which the problem gives, for
// the result cache, which reads it back. A returned value is stored
// whole up to kReturnedExcerptBytes of JSON, else as an excerpt (see
// returned_excerpt): a learner's reply must not grow the cache.
#pragma once

#include <nlohmann/json.hpp>

#include "package/verdict.hpp"

namespace judge {

enum class ResultForm { kPublic, kFull };

// `value` with each infinity and NaN as the string "inf", "-inf" or "nan":
// JSON has none, and an input of logits often holds -inf.
nlohmann::json with_named_non_finite(const nlohmann::json& value);

nlohmann::json test_to_json(const TestResult& test, ResultForm form);
nlohmann::json result_to_json(const ProblemResult& result, ResultForm form);

// Reads the full form back. Throws nlohmann::json::exception (or
// std::bad_optional_access for an unknown verdict) on anything else.
TestResult test_from_json(const nlohmann::json& data);
ProblemResult result_from_json(const nlohmann::json& data);

inline constexpr std::size_t kReturnedExcerptBytes = 64 * 1024;
// `returned` itself when its JSON is at most kReturnedExcerptBytes, else
// {"excerpt": the first items of a list that fit in half that, "items":
// how many there were, "bytes": the size of the whole}.
nlohmann::json returned_excerpt(const nlohmann::json& returned);

// The version of the JSON the judge prints or writes for other programs
// (run, grade, list, doctor, history, try: docs/schemas/): every such
// object carries it as "schema_version". It changes when a field changes
// meaning or goes away, not when one is added.
inline constexpr int kJsonSchemaVersion = 1;

// `object` with "schema_version": kJsonSchemaVersion added.
nlohmann::json with_schema_version(nlohmann::json object);

// `value` as JSON text on one line; invalid UTF-8 in strings (a learner's
// output) becomes U+FFFD instead of throwing.
std::string json_text(const nlohmann::json& value, int indent = -1);

}  // namespace judge
