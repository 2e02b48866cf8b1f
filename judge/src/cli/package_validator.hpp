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

// The reference's slowest request must take at most this fraction of its
// case's time limit.
inline constexpr double kTimeHeadroom = 3.0;

// Validates problems/<slug> and solutions/<slug>: the spec and cases load;
// statement, stub and reference carry no TODO; the reference is accepted on
// every case with time headroom; the untouched stub compiles and is not
// accepted; every accepted/ solution is accepted; every known-wrong solution
// gets its stated verdict (saying which case caught it); stored expectations
// agree with the reference; cases keep their margin from decision
// boundaries. `on_check` sees each check as it completes. Never throws:
// every problem is a failed check.
ValidationReport validate_problem(const Paths& paths, const std::string& slug,
                                  const std::function<void(const ValidationCheck&)>& on_check);

}  // namespace judge
