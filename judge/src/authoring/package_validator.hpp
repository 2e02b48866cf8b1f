// judge validate: catching a broken problem package before a learner does.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "util/paths.hpp"

namespace judge {

struct ValidationCheck {
  bool ok = false;
  std::string what;    // one line: what was checked and how it came out
  std::string detail;  // for failures: what to do about it (may be several lines)
};

struct ValidationReport {
  std::string problem;
  std::vector<ValidationCheck> checks;
};

// The reference's slowest request must take at most 1 / kTimeHeadroom of
// its case's time limit. On a statistical case (many calls per request),
// room for an honest solution kProbeSlowdown times slower per call, which
// must still take at most 1 / kSlowAlternativeHeadroom of it: the reference
// must take at most 1 / (kProbeSlowdown * kSlowAlternativeHeadroom). An accepted
// alternative marked `slowdown:` in solutions.yaml probes this for real; a
// problem with statistical cases must have one.
inline constexpr double kTimeHeadroom = 3.0;
inline constexpr double kSlowAlternativeHeadroom = 2.0;
inline constexpr double kProbeSlowdown = 10.0;

// Validates problems/<slug> and solutions/<slug>: the spec and cases load;
// statement, stub and reference carry no TODO; the reference is accepted on
// every case with time headroom; the untouched stub compiles and is not
// accepted; every accepted/ solution is accepted; every known-wrong solution
// gets its stated verdict (saying which case caught it) and its own mistake
// as its hint; each hint test gets exactly its hints; a `slowdown:`
// alternative is that much slower and has time headroom; stored expectations
// agree with the reference; cases keep their margin from decision
// boundaries. `on_check` sees each check as it completes. Never throws:
// every problem is a failed check.
ValidationReport validate_problem(const Paths& paths, const std::string& slug,
                                  const std::function<void(const ValidationCheck&)>& on_check);

}  // namespace judge
