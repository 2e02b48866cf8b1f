// The search behind a shrunk example, apart from runners: greedy, the way
// property-based testing tools shrink. From the failing input, the first
// candidate (shrink_candidates.hpp: biggest cuts first) that still fails
// is taken and the search starts over from it, until no candidate fails or
// the deadline passes.
#pragma once

#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>

#include "package/problem.hpp"

namespace judge {

struct ShrinkSearch {
  nlohmann::json input;  // the smallest input found that still fails (the start, when none did)
  int tried = 0;         // candidates checked
  int taken = 0;         // candidates that still failed, each smaller or simpler than the last
  bool out_of_time = false;
};

// Shrinks `input` (a map of `op`'s inputs) while `still_fails(candidate)`
// says so, until `deadline`. Each distinct candidate is checked at most
// once: `still_fails` runs code and is the expensive part.
ShrinkSearch shrink_input(const Operation& op, const nlohmann::json& input,
                          const std::function<bool(const nlohmann::json&)>& still_fails,
                          std::chrono::steady_clock::time_point deadline);

}  // namespace judge
