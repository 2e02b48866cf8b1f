// solutions/<slug>/solutions.yaml: the reference, correct alternatives, and
// known-wrong solutions with the verdict each must get and the mistake it
// teaches.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "spec/package.hpp"
#include "spec/problem.hpp"
#include "spec/verdict.hpp"

namespace judge {

struct KnownSolution {
  std::string file;     // absolute
  std::string display;  // solutions/<slug>/wrong/x.hpp
  std::string note;     // accepted: how it differs; wrong: the mistake, in teaching words
  Verdict verdict = Verdict::kAccepted;
  Place place;
};

struct SolutionsIndex {
  std::string reference;  // absolute
  std::vector<KnownSolution> accepted;
  std::vector<KnownSolution> wrong;
};

// The index of `package`; nullopt when it has no solutions.yaml. Throws
// SpecError (file:line:column) for a malformed index or a listed file that
// does not exist.
std::optional<SolutionsIndex> load_solutions_index(const Package& package);

}  // namespace judge
