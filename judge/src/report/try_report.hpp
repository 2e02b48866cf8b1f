// `judge try`'s result as text for a person and as one JSON object for a
// program (judging/try_run.hpp holds the result; docs/cli.md the forms).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "judging/try_run.hpp"

namespace judge {

// The text form: input, yours, reference, difference for one call; the
// tallies (the 20 most likely categories and a line for the rest), the fit,
// the first seeds side by side and determinism for draws. Lists are
// abbreviated the way failure messages are, unless `full`. Everything a
// submission could have written passes through terminal_safe.
std::string try_text(const TryResult& result, bool full);

// The JSON form: every field of the result; a number that is not finite
// is written as the string "inf", "-inf" or "nan".
nlohmann::json try_json(const TryResult& result);

}  // namespace judge
