// ProblemCatalog: loading with the checker registry's rules.
#include "judging/problem_catalog.hpp"

#include "check/registry.hpp"

namespace judge {

Problem ProblemCatalog::load(const std::string& slug) const {
  return load_problem_by_slug(paths_, slug, checker_case_rules());
}

std::vector<Problem> ProblemCatalog::load_all(std::vector<BrokenProblem>* broken) const {
  return load_all_problems(paths_, checker_case_rules(), broken);
}

}  // namespace judge
