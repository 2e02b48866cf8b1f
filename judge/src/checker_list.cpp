// The list of checkers a case may name in `check:`.
#include "checks.hpp"

namespace judge {

const Checker& distribution_checker();     // checks/distribution.cpp
const Checker& sampler_support_checker();  // checks/distribution.cpp
const Checker& growth_checker();           // checks/growth.cpp
const Checker& hypotheses_checker();       // checks/hypotheses.cpp
const Checker& speculative_checker();      // checks/speculative.cpp
const Checker& performance_checker();      // checks/performance.cpp

std::vector<std::pair<std::string, const Checker*>> builtin_checkers() {
  return {
      {"values", &values_checker()},
      {"performance", &performance_checker()},
      {"distribution", &distribution_checker()},
      {"sampler_support", &sampler_support_checker()},
      {"growth", &growth_checker()},
      {"hypotheses", &hypotheses_checker()},
      {"speculative", &speculative_checker()},
  };
}

}  // namespace judge
