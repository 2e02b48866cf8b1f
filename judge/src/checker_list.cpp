// The list of checkers a case may name in `check:`.
#include "checks.hpp"

namespace judge {

std::vector<std::pair<std::string, const Checker*>> builtin_checkers() {
  return {
      {"values", &values_checker()},
  };
}

}  // namespace judge
