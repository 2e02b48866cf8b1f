// The checkers a case may name in `check:`, by name, and the case rules
// that problem loading needs from them.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "check/checker.hpp"
#include "package/problem.hpp"

namespace judge {

// The checker registered as `name`, or null.
const Checker* find_checker(const std::string& name);

// What judging `test` costs, by its check (kFewCalls for an unknown one).
CheckCost cost_of(const TestCase& test);

// Every checker's name, sorted.
std::vector<std::string> checker_names();

// The registry as the CaseRules problem loading checks cases against.
const CaseRules& checker_case_rules();

// Each checker, defined in its own file.
const Checker& values_checker();           // values.cpp
const Checker& distribution_checker();     // distribution.cpp
const Checker& sampler_support_checker();  // distribution.cpp
const Checker& growth_checker();           // growth.cpp
const Checker& hypotheses_checker();       // hypotheses.cpp
const Checker& speculative_checker();      // speculative.cpp
const Checker& performance_checker();      // performance.cpp
const Checker& sequence_checker();         // sequence.cpp

}  // namespace judge
