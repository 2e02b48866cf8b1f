// A sandboxed command run to its end under limits of its own: a memory
// cgroup with a process cap (or, where there is none, an address-space
// limit of twice the memory), CPU time per process, a wall clock, a file
// size limit. The compiler, and addr2line on a learner's runner, run so:
// both read bytes a learner's file made.
#pragma once

#include <cstddef>

#include "sandbox/limits.hpp"
#include "sandbox/process.hpp"
#include "util/cancel_signal.hpp"

namespace judge {

struct LimitedResult {
  CommandResult command;
  bool out_of_memory = false;  // the cgroup's memory limit was hit
};

// Runs `spec` (its sandbox and view set by the caller) to its end under
// `limits`, keeping the first `output_cap` bytes of its output; stops it
// when `cancel` (if given) is raised. `result.command.started` is false
// (with `error`) when it could not start.
LimitedResult run_limited(SpawnSpec spec, const CompileLimits& limits, std::size_t output_cap,
                          const CancelSignal* cancel = nullptr);

}  // namespace judge
