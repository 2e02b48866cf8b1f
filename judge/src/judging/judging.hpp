// Judging one solution against one problem: build, run every case through
// its checker, collect the verdicts.
#pragma once

#include <functional>
#include <string>

#include "compile/build_runner.hpp"
#include "package/problem.hpp"
#include "package/verdict.hpp"
#include "util/paths.hpp"

namespace judge {

struct JudgeRequest {
  std::string solution_file;
  std::string display_name;                             // how messages name the file
  std::function<void(const TestResult&)> on_case;       // called as each case finishes; may be empty
  std::function<void(const std::string&)> on_progress;  // "compiling ..." and the like; may be empty
  // When set, a compile of the learner's runner comes with a quick preview
  // (quick_preview.hpp), whose results are passed here while the compile
  // runs, on another thread, before any on_case; not with sanitize, on a
  // machine of one core, or with parallel_runners 1.
  std::function<void(const TestResult&)> on_preview;
  // Name the known mistakes that explain the failures (see hints.hpp).
  bool hints = true;
  // Answer an unchanged solution from the result cache (result_cache.hpp).
  bool use_result_cache = true;
  // Build the learner's runner with AddressSanitizer and UBSan (no RLIMIT_AS,
  // longer time limits; see sandbox/limits.hpp and check/crash_report.hpp).
  bool sanitize = false;
  // Learner runners judging this problem's cases at once; 0: one per core
  // (see case_scheduler.hpp). Callers that already judge several solutions
  // at once ask for 1.
  unsigned parallel_runners = 0;
  // After judging, shrink the first failing case of each kind within this
  // many milliseconds in all (shrink.hpp); 0: no shrinking.
  double shrink_budget_ms = 0;
  // Judge every case, even after kDefaultMaxTimeouts cases exceeded their
  // time limit (case_scheduler.hpp): for a grade, whose credit counts every
  // case. Otherwise the cases not started by then are reported as not run.
  bool every_case = false;
};

// The request's runner and the reference's, built at once (both cores).
struct BuiltRunners {
  BuildOutcome learner;  // !ok: the learner's compile error, in diagnostics
  BuildOutcome reference;
};

// Whether a compile for `request` comes with a quick preview (see on_preview).
bool wants_preview(const JudgeRequest& request);

// Builds both runners for `problem` (request.on_progress hears "compiling"),
// and previews the learner's while it compiles when request.on_preview asks.
// Throws JudgeFault when the request's file or the reference is missing,
// or the reference does not compile.
BuiltRunners build_runners(const Paths& paths, const Problem& problem, const JudgeRequest& request);

// Judges the request's file. A problem the judge cannot check (broken
// reference, harness fault, missing compiler) throws JudgeFault.
ProblemResult judge_solution(const Paths& paths, const Problem& problem, const JudgeRequest& request);

}  // namespace judge
