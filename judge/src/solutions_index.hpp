// solutions/<slug>/solutions.yaml: the reference, correct alternatives, and
// known-wrong solutions with the verdict each must get and the mistake it
// teaches.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "paths.hpp"
#include "spec.hpp"
#include "verdict.hpp"

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

// The index for `problem`; nullopt when the problem has no solutions.yaml.
// Throws SpecError (file:line:column) for a malformed index or a listed file
// that does not exist.
std::optional<SolutionsIndex> load_solutions_index(const Paths& paths, const Problem& problem);

// "wrong_answer" -> Verdict; nullopt for an unknown name.
std::optional<Verdict> verdict_from_name(const std::string& name);

}  // namespace judge
