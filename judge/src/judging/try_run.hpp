// `judge try`'s work, apart from the command line: builds the learner's
// runner and the reference's the way judging does (sandboxed compiles, the
// runner cache), runs the op on the learner's input in both, and returns
// what came of it as data, for a terminal, JSON or a web page to show.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "judging/judging.hpp"
#include "judging/try_input.hpp"
#include "package/problem.hpp"
#include "package/verdict.hpp"
#include "util/paths.hpp"

namespace judge {

// What one solution did with the input (kValue), or how its draws ended.
struct TrySide {
  bool returned = false;
  nlohmann::json value;  // when returned
  // When it did not return (or, for the learner's sampled draws, broke a
  // rule a case checks): the verdict a case would get and why, in the
  // checkers' words ("uncaught exception std::out_of_range: ...", a crash
  // with the learner's line).
  Verdict verdict = Verdict::kAccepted;
  std::string message;
  bool threw_invalid_argument = false;
  std::string printed;  // what the code printed (head)
};

// A category of a tally and how often each side drew it.
struct TallyRow {
  std::string label;               // "token 3", "2 of 3 drafts accepted", an output
  std::optional<double> expected;  // its probability, when the law is known
  std::int64_t yours = 0, reference = 0;
};

// The draws of both sides over one set of categories, and how well the
// learner's fit: the expected probabilities when known (Pearson's
// chi-square, categories of small expected count pooled, as judging does),
// else the reference's draws (a test of homogeneity).
struct Tally {
  std::string title;           // "token", "first emitted token", "output", ...
  std::vector<TallyRow> rows;  // most probable (else most drawn) first, ties by category
  std::int64_t draws = 0;
  bool against_expected = false;
  double statistic = 0;
  int degrees_of_freedom = 0;
  double p_value = 1;
  double rejected_below = 0;  // the p-value under which the fit is rejected (judging's false-reject rate)
  bool rejected = false;
  std::vector<std::string> impossible;  // categories of probability 0 the learner drew, with counts
};

// The first seeds of a sampled run, both sides' answers.
struct SeedRow {
  std::uint64_t seed = 0;
  nlohmann::json yours, reference;
};

struct TryResult {
  std::string problem, op, solution;
  TryMode mode = TryMode::kValue;        // kValue also for a seed_sweep op given its seed
  nlohmann::json input;                  // as read, generators expanded
  std::vector<std::string> input_names;  // the op's inputs in the order the problem declares them
  Tolerance tolerance;                   // the problem's
  bool compiled = true;
  std::string diagnostics;  // !compiled: the compiler's errors
  TrySide yours, reference;
  std::int64_t draws = 0;  // the sampled modes
  std::vector<SeedRow> seeds;
  std::vector<Tally> tallies;
  std::optional<bool> deterministic;  // the sampled modes, once the learner's first draws came back
  std::string nondeterminism;         // when not deterministic: the seed and both answers
  bool agree = false;
  std::string difference;  // one line: "none: ...", or what differs
};

struct TryRequest {
  JudgeRequest build;          // solution_file, display_name, on_progress
  std::int64_t draws = 10000;  // the sampled modes: how many seeds
};

// Runs `op` on `input` in the learner's runner and the reference's. A
// learner's compile error comes back as !compiled. Throws JudgeFault when
// the judge cannot work (the reference fails on the input, a runner does
// not start) and SpecError when the harness cannot run the input (a
// malformed toy model, say).
TryResult try_solution(const Paths& paths, const Problem& problem, const TryableOp& op, const TryInput& input,
                       const TryRequest& request);

}  // namespace judge
