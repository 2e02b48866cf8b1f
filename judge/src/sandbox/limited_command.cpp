// run_limited: a cgroup (or rlimits), then run_command, retried alone when
// the machine starved it.
#include "sandbox/limited_command.hpp"

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>

#include "sandbox/machine_load.hpp"
#include "sandbox/runner_cgroup.hpp"

namespace judge {
namespace {
LimitedResult run_once(SpawnSpec spec, const CompileLimits& limits, std::size_t output_cap, const CancelSignal* cancel,
                       int backstop_factor) {
  spec.max_processes = limits.max_processes;
  spec.cpu_seconds = limits.seconds;  // per process, from the kernel: a backstop to the cgroup's count
  spec.file_size_bytes = limits.file_size_bytes;
  std::unique_ptr<RunnerCgroup> cgroup;
  std::string unused;  // a cgroup that cannot be made now falls back like a missing one
  if (cgroups_in_use())
    cgroup = RunnerCgroup::create(cgroup_support(), limits.memory_bytes, limits.max_processes, &unused);
  if (cgroup)
    spec.cgroup_procs_fds = cgroup->procs_fds();
  else
    spec.address_space_bytes = 2 * limits.memory_bytes;  // address space runs ahead of resident memory
  const double cpu_limit_ms = limits.seconds * 1000.0;
  auto cgroup_cpu_ms = [&] { return cgroup ? cgroup->cpu_ms().value_or(0) : 0.0; };
  auto over_cpu = [&] { return cgroup_cpu_ms() > cpu_limit_ms; };
  LimitedResult result;
  auto started = std::chrono::steady_clock::now();
  result.command = run_command(spec, limits.seconds * 1000 * backstop_factor, output_cap, cancel,
                               cgroup ? std::function<bool()>(over_cpu) : std::function<bool()>());
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  // The outer process's count holds every process below it once reaped.
  result.cpu_seconds = std::max(result.command.status.cpu_seconds, cgroup_cpu_ms() / 1000);
  result.out_of_memory = cgroup && cgroup->out_of_memory();
  result.over_cpu = result.command.over_cpu || result.command.status.signal == SIGXCPU;
  result.starved = result.command.timed_out && !result.over_cpu && result.cpu_seconds < limits.seconds;
  return result;
}
}  // namespace

LimitedResult run_limited(const SpawnSpec& spec, const CompileLimits& limits, std::size_t output_cap,
                          const CancelSignal* cancel) {
  {
    WorkGate::Shared shared;
    LimitedResult result = run_once(spec, limits, output_cap, cancel, kCompileBackstopFactor);
    if (!result.starved) return result;
  }
  WorkGate::Alone alone;
  return run_once(spec, limits, output_cap, cancel, kCompileBackstopFactor * kAloneBackstopScale);
}

}  // namespace judge
