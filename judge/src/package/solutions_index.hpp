// solutions/<slug>/solutions.yaml: the reference, correct alternatives, and
// known-wrong solutions with the verdict each must get and the mistake it
// teaches.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "package/layout.hpp"
#include "package/problem.hpp"
#include "package/verdict.hpp"

namespace judge {

struct KnownSolution {
  std::string file;     // absolute
  std::string display;  // solutions/<slug>/wrong/x.hpp
  std::string note;     // accepted: how it differs; wrong: the mistake, in teaching words
  Verdict verdict = Verdict::kAccepted;
  // accepted: how many times slower per call than the reference it is by
  // design (0: not a measure of headroom); validate checks it and that the
  // cases leave it time.
  double slowdown = 0;
  // hint_tests: the known-wrong solutions (absolute) whose mistakes the
  // hints must name, exactly; empty: no hint.
  std::vector<std::string> hints;
  Place place;
};

struct SolutionsIndex {
  std::string reference;  // absolute
  std::vector<KnownSolution> accepted;
  std::vector<KnownSolution> wrong;
  // Solutions wrong in other ways (two known mistakes at once, an unknown
  // one), each with the verdict and the hints it must get.
  std::vector<KnownSolution> hint_tests;
};

// The index of `package`; nullopt when it has no solutions.yaml. Throws
// SpecError (file:line:column) for a malformed index or a listed file that
// does not exist.
std::optional<SolutionsIndex> load_solutions_index(const Package& package);

}  // namespace judge
