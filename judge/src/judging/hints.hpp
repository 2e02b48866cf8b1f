// Hints from known mistakes: when a learner's failure on a case matches how
// one of the problem's known-wrong solutions fails that case, the report
// names the mistake in teaching words. The known-wrong solutions are the
// teaching catalog.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "check/reference_oracle.hpp"
#include "spec/problem.hpp"
#include "spec/solutions_index.hpp"
#include "spec/verdict.hpp"
#include "util/paths.hpp"

namespace judge {

class HintFinder {
 public:
  HintFinder(const Paths& paths, const Problem& problem, SolutionsIndex index);
  ~HintFinder();

  // The mistake of the first known-wrong solution that fails `test` the way
  // `failure` did: the same returned value within the case's tolerance, the
  // same histogram for a sampler, or the same kind of failure (exception
  // type, signal, nondeterminism). Builds and runs the wrong solutions on
  // this one case (runners are cached). Never throws: a hint is optional.
  std::optional<std::string> find(const TestCase& test, const TestResult& failure);

 private:
  struct Runner;
  void build_wrong_runners();
  // How `wrong` fares on `test` (run once, then remembered); null when it
  // could not be built or the reference could not.
  const TestResult* result_of(const KnownSolution& wrong, const TestCase& test);

  const Paths& paths_;
  const Problem& problem_;
  SolutionsIndex index_;
  std::map<std::string, std::unique_ptr<Runner>> runners_;
  std::unique_ptr<ReferenceOracle> oracle_;
};

// Whether two failures of the same case are the same mistake.
bool same_failure(const TestCase& test, const TestResult& a, const TestResult& b);

}  // namespace judge
