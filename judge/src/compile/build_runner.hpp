// Compiling a solution file and the problem's adapter into a runner binary,
// in the sandbox (compile/compile.hpp), cached by the content of everything
// that goes into it.
//
// A solution is one file. The compiler works on a private copy of it in a
// scratch directory, beside a copy of the adapter, and sees nothing of the
// judge's but the build inputs (compile/inputs.hpp): not problems/, not
// solutions/, not the workspace or the folder being graded. The judge reads
// the solution file itself (once, through one descriptor, at most
// kMaxSolutionBytes, a regular file only) and never a path the solution
// names.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "package/problem.hpp"
#include "util/cancel_signal.hpp"
#include "util/paths.hpp"

namespace judge {

// Where the solution is, as the compiled runner's debug information names
// it (compile/compile.hpp maps the working directory to /judge-build): what
// a crash trace resolves to.
inline constexpr const char* kCompiledSolutionPath = "/judge-build/solution.hpp";

// The largest solution file the judge accepts.
inline constexpr std::uint64_t kMaxSolutionBytes = 16ull << 20;

struct BuildOutcome {
  bool ok = false;
  std::string binary;       // the runner, when ok
  std::string diagnostics;  // why not, when !ok: the compiler's errors, or what the judge refused
};

struct BuildOptions {
  // AddressSanitizer and UndefinedBehaviorSanitizer (-O1 -g
  // -fno-omit-frame-pointer instead of -O2 -g1); see check/crash_report.hpp.
  bool sanitize = false;
  // The learner's file at -Og instead of -O2 (the rest of the runner as
  // ever): a runner that compiles in about two thirds of the time and runs
  // slower, for a first look (judging/quick_preview.hpp). No effect with
  // sanitize.
  bool quick = false;
  // Called (on the building thread) when the runner is not in the cache and
  // is about to be compiled.
  std::function<void()> on_compile;
  // When raised, a compile in progress stops and the outcome is not ok.
  const CancelSignal* cancel = nullptr;
};

// Builds (or finds in the cache) the runner for `solution_file` with the
// adapter of `problem`. `display_name` is how messages name the file. The
// compiler is $CXX, else c++. Throws JudgeFault when the compiler cannot be
// run at all or the runner cannot be stored.
BuildOutcome build_runner(const Paths& paths, const Problem& problem, const std::string& solution_file,
                          const std::string& display_name, const BuildOptions& options = {});

}  // namespace judge
