// A problem package's files, composed in one place: the judge's other code
// asks here instead of joining "problems/SLUG/..." by hand.
//
//   problems/SLUG/problem.yaml, stub.hpp, hidden/*.yaml
//   solutions/SLUG/reference.hpp, solutions.yaml, accepted/, wrong/
//   harness/problems/SLUG.cpp (the adapter)
//   harness/problems/SLUG.learner.hpp (the learner's functions the adapter calls)
#pragma once

#include <string>
#include <vector>

#include "util/paths.hpp"

namespace judge {

struct Package {
  std::string slug;
  std::string problem_dir;      // problems/SLUG
  std::string spec_file;        // problems/SLUG/problem.yaml
  std::string stub;             // problems/SLUG/stub.hpp
  std::string hidden_dir;       // problems/SLUG/hidden
  std::string solutions_dir;    // solutions/SLUG
  std::string reference;        // solutions/SLUG/reference.hpp
  std::string solutions_index;  // solutions/SLUG/solutions.yaml
  std::string explanation;      // solutions/SLUG/explanation.md: why the reference is written so
  std::string adapter;          // harness/problems/SLUG.cpp
  // harness/problems/SLUG.learner.hpp: with it, the adapter is compiled once
  // and a solution on its own (judge_harness/learner.hpp); an adapter
  // without it includes JUDGE_SOLUTION and is compiled with every solution.
  std::string learner_bindings;
};

// The files `slug`'s package has or would have (nothing is checked).
Package package_of(const Paths& paths, const std::string& slug);

// True when `slug` is a problem under paths.problems_dir: a plain name
// whose problem.yaml exists.
bool is_problem(const Paths& paths, const std::string& slug);

// The slugs of the problems under `problems_dir` (directories with a
// problem.yaml), sorted by name; read without parsing any problem.
std::vector<std::string> problem_slugs(const std::string& problems_dir);

}  // namespace judge
