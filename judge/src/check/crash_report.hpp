// Explaining how a learner's runner crashed, in the learner's terms: what
// went wrong and on which line of their file.
//
// Three sources, read from what the runner printed (CallResult::output):
//   - an AddressSanitizer or UndefinedBehaviorSanitizer report (`judge run
//     --sanitize`), whose stack frames are module+offset (the runner runs
//     with symbolize=0) and are mapped to lines here with addr2line;
//   - a failed _GLIBCXX_ASSERTIONS check ("stl_vector.h:1123: ...
//     Assertion '__n < this->size()' failed."), which every runner is
//     compiled with;
//   - the harness's crash trace ("judge-crash-trace: 0x.. 0x..", see
//     harness/src/crash_trace.cpp): its own frames' addresses on a fatal
//     signal.
// The place is the innermost frame (inlined frames included) in the
// learner's file, named the way the learner named the file.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "package/verdict.hpp"

namespace judge {

// A line of source code, one frame of an inline chain.
struct SourceFrame {
  std::string function;
  std::string file;  // as the compiler saw it
  int line = 0;
};

// For each address in `binary` (file addresses, as in the ELF), its inline
// chain, innermost first; an empty chain for an unknown address.
using Symbolizer =
    std::function<std::vector<std::vector<SourceFrame>>(const std::string& binary, const std::vector<std::uint64_t>&)>;

// Runs `addr2line -e binary -f -C -i -a` (binutils), sandboxed and bounded
// (check/addr2line_run.hpp). Returns empty chains when addr2line is
// missing, fails or hits a limit, or when `binary` has had its share.
std::vector<std::vector<SourceFrame>> addr2line_symbolizer(const std::string& binary,
                                                           const std::vector<std::uint64_t>& addresses);

struct CrashContext {
  std::string binary;            // the runner that crashed
  std::string solution_path;     // the learner's file, absolute, as the runner's debug information names it
  std::string solution_display;  // how messages name it
  std::string compile_dir = "";  // what a relative path in a report (UBSan's) is relative to
};

struct CrashReport {
  std::string what;           // "AddressSanitizer: heap-buffer-overflow (READ of size 8)", ...
  std::string where;          // "workspace/top_p.hpp:23", or empty when no frame is in the learner's file
  std::string function;       // the learner's function at `where`, demangled; may be empty
  bool memory_limit = false;  // ASan's resident-memory limit, not a bug
};

// What `output` says about the crash; nullopt when it holds no report, no
// failed check and no crash trace.
std::optional<CrashReport> read_crash_report(const std::string& output, const CrashContext& context,
                                             const Symbolizer& symbolize = addr2line_symbolizer);

// `output` without the harness's crash-trace lines (noise to a learner).
std::string without_crash_trace(const std::string& output);

// For a case whose runner died: rewrites the message (and, for a sanitizer
// report, the verdict) from the crash report, and drops the crash trace from
// the output shown. Leaves any other result untouched.
void explain_crash(const CrashContext& context, TestResult* result);

}  // namespace judge
