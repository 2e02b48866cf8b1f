// Turning the compiler's output into what a learner needs to read.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace judge {

struct DiagnosticsContext {
  std::string solution_path;     // the solution's path as the compiler saw it
  std::string solution_display;  // how the learner named it
  std::string adapter_path;      // the adapter's path as the compiler saw it
  std::string adapter_display;
  // Where the adapter's macros are defined, as the compiler saw it (an
  // error inside one of them is the adapter's too), or "".
  std::string adapter_macros_path;
  std::string signature;  // the problem's expected declarations
  // Other paths as the compiler saw them, and how messages name them.
  std::vector<std::pair<std::string, std::string>> renames;
};

// Keeps the learner's file's errors and notes, the harness adapter's
// errors, and one line per error inside system headers (the standard
// library, Eigen); drops include chains and template backtraces; caps the
// number of lines and the length of each. When the adapter is mentioned (a
// wrong or missing signature), adds the signature the harness expects.
// When the solution includes a file it may not (another file of its own, a
// file of the judge's), or the assembler was asked to read one, says that a
// solution is compiled on its own. The output is safe to show whatever the
// compiler printed: lines are cut, and no regular expression sees more than
// kMaxMatchedDiagnosticLine characters of a line.
std::string filter_diagnostics(const std::string& raw, const DiagnosticsContext& context);

}  // namespace judge
