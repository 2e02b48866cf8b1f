// The learner's progress as JSON, the same for `judge list --format json`,
// `judge history --format json` and the page of `judge serve`.
#pragma once

#include <nlohmann/json.hpp>

#include "practice/workspace.hpp"

namespace judge {

// {"time", "verdict", "passed", "cases", "seconds"}
nlohmann::json attempt_json(const Attempt& attempt);

// {"problem", "title", "order", "status", "attempts": how many, "best":
// attempt_json of the best or null}: one row of `judge list --format json`.
nlohmann::json problem_progress_json(const Paths& paths, const Problem& problem);

}  // namespace judge
