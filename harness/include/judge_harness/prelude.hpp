// Headers every runner includes, compiled once into a precompiled header by
// the judge (build.cpp) so that compiling a solution parses only the
// solution. A solution must not rely on them: include what you use.
#pragma once

#include <judge_harness/runner.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <numeric>
#include <queue>
#include <random>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>
