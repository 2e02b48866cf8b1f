// What `judge doctor` reports: each protection around learners' code, and
// whether this machine gives it.
#pragma once

#include <string>
#include <vector>

namespace judge {

struct ProtectionReport {
  std::string name;
  bool active = false;
  std::string detail;  // what it does, or why it is missing and what that allows
};

// One entry per protection, in a fixed order.
std::vector<ProtectionReport> describe_protections();

}  // namespace judge
