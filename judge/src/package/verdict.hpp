// Verdicts and per-case results, shared by checkers, judging and reporters.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "package/tolerance.hpp"

namespace judge {

enum class Verdict {
  kAccepted,
  kWrongAnswer,
  kRuntimeError,
  kTimeLimitExceeded,
  kMemoryLimitExceeded,
  kCompileError,
};

// The spelling in cli.md: "accepted", "wrong_answer", ...
std::string verdict_name(Verdict verdict);
// "wrong_answer" -> Verdict; nullopt for an unknown name.
std::optional<Verdict> verdict_from_name(const std::string& name);

struct TestResult {
  std::string name;
  bool hidden = false;
  Verdict verdict = Verdict::kAccepted;
  double time_ms = 0;
  std::string message;  // empty when accepted
  std::string details;  // failed cases: expected and got, one per line (the checker's words)
  std::string output;   // what the learner's code printed during the case (head)
  // How the case failed, for matching against known mistakes: "value"
  // (with `returned`), "no_throw", "exception:<type>", "signal:<n>",
  // "timeout", "memory", or a checker's own kind ("distribution", ...).
  std::string failure_kind;
  nlohmann::json returned;     // the value the code returned, when it failed by returning one
  double slowest_call_ms = 0;  // the longest single request of the case
  // The runner's CPU time over the case's requests, every thread, from the
  // kernel (0 where it was not measured). Not kept in the result cache.
  double cpu_ms = 0;
  std::string hint;  // the known mistake that explains this failure, in teaching words
  // Failed cases only: what the case tests, and its input as the problem
  // file gives it (a generated input as its generator, seed included).
  std::string note;
  nlohmann::json input;
  // The learner's runner died or hung before it could serve any request
  // (in the learner's static initializers): every other case would fail
  // the same way, so they are not run.
  bool runner_never_ready = false;
  // The case was never run (after too many time-outs, or after a runner
  // that never got ready): its verdict is the one that stopped the rest,
  // and it earns nothing, but it is not the case to name as the failure.
  bool not_run = false;
};

// A known mistake that explains some of a solution's failures: its words
// from solutions.yaml, and the failed cases it explains (in case order).
struct Hint {
  std::string mistake;
  std::vector<std::string> cases;
};

// A failing case's input made as small as the time allowed, checked again
// to fail the same way under the case's rule (judging/shrink.hpp), or why
// the case was not shrunk.
struct ShrunkExample {
  std::string from_case;     // the failing case it was derived from
  std::string failure_kind;  // the kind of failure it keeps (TestResult::failure_kind)
  bool shrunk = false;       // false: not_shrunk says why, and nothing else is set
  std::string not_shrunk;
  std::string sizes;         // what got smaller: "logits 131,072 -> 3 entries, k 40 -> 1"
  nlohmann::json input;      // the smaller input, whole
  std::string message;       // the case's check on it, in the checker's words
  std::string details;       // expected and got on it
  int candidates_tried = 0;  // smaller inputs run through both solutions
  double ms = 0;             // the search's wall time
};

struct ProblemResult {
  std::string problem;
  std::string solution;  // the judged file, for people
  Verdict verdict = Verdict::kAccepted;
  std::string message;  // compile errors and other whole-problem failures
  std::vector<TestResult> tests;
  std::vector<Hint> hints;  // known mistakes that explain the failures, best first
  // Why the search for known mistakes made fewer comparisons than it set
  // out to (judging/hints.hpp); empty when it made them all. Such a result
  // is never cached: the next run searches again.
  std::string hints_cut_short;
  bool from_cache = false;  // answered by the result cache: nothing was run
  Tolerance tolerance;      // the problem's; a case that has its own says so in its message
  // The first failing case of each kind of failure, shrunk (when judging
  // was asked to shrink), in case order.
  std::vector<ShrunkExample> shrunk;
  // Set by the command line, never cached: the protections this machine
  // lacks for this judging (sandbox/untrusted_code.hpp), when any.
  std::string sandbox_note;
};

}  // namespace judge
