// A sandboxed command run to its end under limits of its own: a memory
// cgroup with a process cap (or, where there is none, an address-space
// limit of twice the memory), CPU time (the cgroup's whole count where
// there is one, and per process), a file size limit, and a clock backstop
// kCompileBackstopFactor times the CPU limit. The compiler, and addr2line on
// a learner's runner, run so: both read bytes a learner's file made.
//
// A command stopped by the backstop having used less than its CPU time was
// starved by a busy machine (sandbox/machine_load.hpp): it runs once more,
// alone and with a backstop kAloneBackstopScale times longer, and is
// reported starved only if that starves too.
#pragma once

#include <cstddef>

#include "sandbox/limits.hpp"
#include "sandbox/process.hpp"
#include "util/cancel_signal.hpp"

namespace judge {

struct LimitedResult {
  CommandResult command;
  bool out_of_memory = false;  // the cgroup's memory limit was hit
  bool over_cpu = false;       // it used its CPU time (the cgroup's count, or RLIMIT_CPU's SIGXCPU)
  bool starved = false;        // stopped by the clock twice, having used less than its CPU time
  double cpu_seconds = 0;      // what its processes used, by the kernel's count
  double wall_seconds = 0;
};

// Runs `spec` (its sandbox and view set by the caller) to its end under
// `limits`, keeping the first `output_cap` bytes of its output; stops it
// when `cancel` (if given) is raised. `result.command.started` is false
// (with `error`) when it could not start.
LimitedResult run_limited(const SpawnSpec& spec, const CompileLimits& limits, std::size_t output_cap,
                          const CancelSignal* cancel = nullptr);

}  // namespace judge
