// Turning the compiler's output into what a learner needs to read.
#pragma once

#include <string>

namespace judge {

struct DiagnosticsContext {
  std::string solution_path;     // absolute path the compiler saw
  std::string solution_display;  // how the learner named it
  std::string adapter_path;      // absolute path of the problem's adapter
  std::string adapter_display;
  std::string signature;  // the problem's expected declarations
};

// Keeps the learner's file's errors and notes, the harness adapter's
// errors, and one line per error inside system headers (the standard
// library, Eigen); drops include chains and template backtraces; caps the
// length. When the adapter is mentioned (a wrong or missing signature), adds
// the signature the harness expects.
std::string filter_diagnostics(const std::string& raw, const DiagnosticsContext& context);

}  // namespace judge
