// The problems this judge serves, loaded as judging needs them: every case
// checked against the checker registry's rules (check/registry.hpp), every
// file found through the package layout (package/layout.hpp). The commands
// and services ask here, and none of them needs the registry for it.
#pragma once

#include <string>
#include <vector>

#include "package/layout.hpp"
#include "package/problem.hpp"
#include "util/paths.hpp"

namespace judge {

class ProblemCatalog {
 public:
  explicit ProblemCatalog(const Paths& paths) : paths_(paths) {}

  // The problem `slug`. Throws JudgeFault "unknown problem 'x'; the problems
  // are: ..." when there is none, SpecError (file, line, key) when its files
  // are malformed.
  Problem load(const std::string& slug) const;

  // Every problem, in course order. A problem whose files are malformed
  // throws SpecError, unless `broken` is given: then it is listed there and
  // the others load.
  std::vector<Problem> load_all(std::vector<BrokenProblem>* broken = nullptr) const;

  // The files of `slug`'s package (nothing is checked).
  Package package(const std::string& slug) const { return package_of(paths_, slug); }

  // Whether `slug` names a problem here.
  bool has(const std::string& slug) const { return is_problem(paths_, slug); }

 private:
  const Paths& paths_;
};

}  // namespace judge
