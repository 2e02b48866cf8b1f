// One run of the compiler in the sandbox: the compiler, assembler and
// linker see the system's headers and libraries, the build inputs
// (read-only) and a scratch directory (their working directory, the only
// place they may write), under the limits of sandbox/limits.hpp, in a PID
// namespace that dies with the judge. With a private root they see them as
// /usr..., /judge/inputs-KEY and /judge/builds/scratch/work: the inputs are
// "../../../inputs-KEY" from the working directory either way.
#pragma once

#include <string>
#include <vector>

#include "compile/inputs.hpp"
#include "sandbox/limits.hpp"
#include "sandbox/scratch.hpp"
#include "util/cancel_signal.hpp"

namespace judge {

// The compiler's working directory, as debug information and __FILE__ name
// it in every runner (-ffile-prefix-map), whatever the machine: what a
// crash trace's paths are relative to.
inline constexpr const char* kCompileDirectory = "/judge-build";

struct CompileJob {
  std::vector<std::string> argv;  // argv[0]: the compiler, an absolute path
  const SandboxScratch& scratch;  // its work/ is the working directory
  const BuildInputs& inputs;
  CompileLimits limits;
  const CancelSignal* cancel = nullptr;  // when raised, the compile stops (kCancelled)
};

struct CompileOutcome {
  enum class Ended {
    kSucceeded,
    kFailed,     // the compiler reported errors
    kTimeLimit,  // CPU time (the clock's backstop only once it had used it)
    kMemoryLimit,
    kFileSizeLimit,
    kProcessLimit,
    kCancelled,  // CompileJob::cancel was raised: nobody wants the runner any more
  };
  Ended ended = Ended::kFailed;
  std::string output;  // what the compiler printed, the first MiB
};

// Runs `job` to the end. Throws JudgeFault when the compiler cannot be
// started at all, or when a busy machine starved it twice (the second time
// alone: sandbox/limited_command.hpp): that is the machine's doing, never
// the learner's compile_error.
CompileOutcome run_compile(const CompileJob& job);

// One line for a compile that hit a limit: "the compiler exceeded its time
// limit of 60 s of CPU time", ...; empty for kSucceeded and kFailed.
std::string describe_limit(const CompileOutcome& outcome, const CompileLimits& limits);

}  // namespace judge
