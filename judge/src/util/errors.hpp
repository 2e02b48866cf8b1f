// The two ways the judge itself fails, kept apart from a learner's verdict.
// Both end a command with exit status 2 and their message on stderr.
#pragma once

#include <string>

namespace judge {

// The judge cannot do its job: the reference failed, the harness did not
// understand a request, the compiler is missing, an argument is bad.
struct JudgeFault {
  std::string message;
};

// A problem package is malformed. The message starts with
// "file:line:column: " wherever the place is known.
struct SpecError {
  std::string message;
};

}  // namespace judge
