// Verdicts and per-case results, shared by checkers, judging and reporters.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "spec/tolerance.hpp"

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
  std::string hint;            // the known mistake that explains this failure, in teaching words
  // Failed cases only: what the case tests, and its input as the problem
  // file gives it (a generated input as its generator, seed included).
  std::string note;
  nlohmann::json input;
};

// A known mistake that explains some of a solution's failures: its words
// from solutions.yaml, and the failed cases it explains (in case order).
struct Hint {
  std::string mistake;
  std::vector<std::string> cases;
};

struct ProblemResult {
  std::string problem;
  std::string solution;  // the judged file, for people
  Verdict verdict = Verdict::kAccepted;
  std::string message;  // compile errors and other whole-problem failures
  std::vector<TestResult> tests;
  std::vector<Hint> hints;  // known mistakes that explain the failures, best first
  bool from_cache = false;  // answered by the result cache: nothing was run
  Tolerance tolerance;      // the problem's; a case that has its own says so in its message
};

}  // namespace judge
