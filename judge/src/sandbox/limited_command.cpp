// run_limited: a cgroup (or rlimits), then run_command.
#include "sandbox/limited_command.hpp"

#include <memory>
#include <string>

#include "sandbox/runner_cgroup.hpp"

namespace judge {

LimitedResult run_limited(SpawnSpec spec, const CompileLimits& limits, std::size_t output_cap,
                          const CancelSignal* cancel) {
  spec.max_processes = limits.max_processes;
  spec.cpu_seconds = limits.seconds;
  spec.file_size_bytes = limits.file_size_bytes;
  std::unique_ptr<RunnerCgroup> cgroup;
  std::string unused;  // a cgroup that cannot be made now falls back like a missing one
  if (cgroups_in_use())
    cgroup = RunnerCgroup::create(cgroup_support(), limits.memory_bytes, limits.max_processes, &unused);
  if (cgroup)
    spec.cgroup_procs_fds = cgroup->procs_fds();
  else
    spec.address_space_bytes = 2 * limits.memory_bytes;  // address space runs ahead of resident memory
  LimitedResult result;
  result.command = run_command(spec, limits.seconds * 1000, output_cap, cancel);
  result.out_of_memory = cgroup && cgroup->out_of_memory();
  return result;
}

}  // namespace judge
