// The table of checkers. Listed here by hand: a static library would drop
// self-registering objects that nothing references.
#include "check/registry.hpp"

#include <map>

namespace judge {
namespace {
const std::map<std::string, const Checker*>& checkers_by_name() {
  static const std::map<std::string, const Checker*> checkers = {
      {"values", &values_checker()},
      {"performance", &performance_checker()},
      {"distribution", &distribution_checker()},
      {"sampler_support", &sampler_support_checker()},
      {"growth", &growth_checker()},
      {"hypotheses", &hypotheses_checker()},
      {"speculative", &speculative_checker()},
      {"sequence", &sequence_checker()},
  };
  return checkers;
}

class RegistryRules : public CaseRules {
 public:
  std::vector<std::string> check_names() const override { return judge::checker_names(); }
  bool knows(const std::string& check) const override { return find_checker(check) != nullptr; }
  std::vector<std::string> supplied_inputs(const TestCase& test) const override {
    return find_checker(test.check)->supplied_inputs(test);
  }
  bool takes_then(const TestCase& test) const override { return find_checker(test.check)->takes_then(); }
  std::optional<std::string> problem_with(const TestCase& test, const Operation& op) const override {
    return find_checker(test.check)->problem_with(test, op);
  }
};
}  // namespace

const Checker* find_checker(const std::string& name) {
  auto found = checkers_by_name().find(name);
  return found == checkers_by_name().end() ? nullptr : found->second;
}

CheckCost cost_of(const TestCase& test) {
  const Checker* checker = find_checker(test.check);
  return checker ? checker->cost() : CheckCost::kFewCalls;
}

std::vector<std::string> checker_names() {
  std::vector<std::string> names;
  for (const auto& entry : checkers_by_name()) names.push_back(entry.first);
  return names;
}

const CaseRules& checker_case_rules() {
  static const RegistryRules rules;
  return rules;
}

}  // namespace judge
