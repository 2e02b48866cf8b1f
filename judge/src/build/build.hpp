// Compiling a solution file and the problem's adapter into a runner binary,
// cached by the content of everything that goes into it.
#pragma once

#include <string>

#include "spec/problem.hpp"
#include "util/paths.hpp"

namespace judge {

struct BuildOutcome {
  bool ok = false;
  std::string binary;       // the runner, when ok
  std::string diagnostics;  // filtered compiler output, when !ok
};

struct BuildOptions {
  // AddressSanitizer and UndefinedBehaviorSanitizer (-O1 -g
  // -fno-omit-frame-pointer instead of -O2 -g1); see check/crash_report.hpp.
  bool sanitize = false;
};

// Builds (or finds in the cache) the runner for `solution_file` with the
// adapter of `problem`. `display_name` is how messages name the file. The
// compiler is $CXX, else c++. Throws JudgeFault when the compiler cannot be
// run at all or the runner cannot be stored.
BuildOutcome build_runner(const Paths& paths, const Problem& problem, const std::string& solution_file,
                          const std::string& display_name, const BuildOptions& options = {});

}  // namespace judge
