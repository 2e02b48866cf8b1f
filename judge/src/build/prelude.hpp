// The precompiled prelude: the standard library (and Eigen, for problems
// that use it) compiled once per compiler, flags and harness headers, so
// each edit compiles only the learner's file and the adapter.
#pragma once

#include <string>
#include <vector>

#include "util/paths.hpp"

namespace judge {

// "prelude_eigen" for an adapter that mentions Eigen, else "prelude" (the
// headers harness/include/judge_harness/NAME.hpp).
std::string prelude_for_adapter(const std::string& adapter_source);

// Builds (once; later calls find it in the cache) the precompiled `name`
// for `flags` and returns the header to pass with -include, or "" when it
// cannot be built (compiling then works without it, only slower).
// Thread-safe.
std::string precompiled_prelude(const Paths& paths, const std::string& name, const std::vector<std::string>& flags);

}  // namespace judge
