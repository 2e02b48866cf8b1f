// Settings read from the environment, with one rule for each kind.
#pragma once

#include <cstdint>

namespace judge {

// A boolean flag: on for 1, true or yes (any case), off for anything else,
// unset included. `JUDGE_NO_MEMORY_CGROUP=0` is therefore off.
bool environment_flag(const char* name);

// An integer setting within [low, high]; `fallback` when unset or not such
// an integer.
std::int64_t environment_integer(const char* name, std::int64_t low, std::int64_t high, std::int64_t fallback);

}  // namespace judge
