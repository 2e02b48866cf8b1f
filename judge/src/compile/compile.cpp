// run_compile: a sandboxed child with a cgroup, rlimits and a wall clock.
#include "compile/compile.hpp"

#include <signal.h>

#include <fmt/format.h>

#include "compile/compiler.hpp"
#include "sandbox/limited_command.hpp"
#include "sandbox/machine_load.hpp"
#include "sandbox/sandbox.hpp"
#include "sandbox/system_mounts.hpp"
#include "util/errors.hpp"

namespace judge {
namespace {
constexpr std::size_t kKeptCompilerOutputBytes = 1 << 20;

// What the kernel's signals and the compiler driver's own words say about
// a limit that stopped it (the driver reports a killed cc1plus, as or ld
// and exits 1 itself).
CompileOutcome::Ended classify(const LimitedResult& limited) {
  using Ended = CompileOutcome::Ended;
  const CommandResult& result = limited.command;
  const std::string& text = result.output;
  const ExitStatus& status = result.status;
  auto said = [&](const char* words) { return text.find(words) != std::string::npos; };
  bool out_of_memory = limited.out_of_memory;
  if (limited.over_cpu || result.timed_out || said("CPU time limit exceeded")) return Ended::kTimeLimit;
  if (out_of_memory || said("out of memory allocating") || said("virtual memory exhausted") ||
      said("Cannot allocate memory"))
    return Ended::kMemoryLimit;
  if (status.signal == SIGXFSZ || said("File size limit exceeded")) return Ended::kFileSizeLimit;
  if (said("Resource temporarily unavailable") && (said("fork") || said("spawn"))) return Ended::kProcessLimit;
  if (status.exited && status.code == 0) return Ended::kSucceeded;
  return Ended::kFailed;
}

SandboxView compile_view(const CompileJob& job) {
  SandboxView view;
  // The system's headers, libraries and tools, and the build inputs; not
  // /etc beyond the loader's cache, not /proc, not /tmp, not the checkout.
  view.mounts = system_mounts(SystemNeeds::kToolchain, compiler_installation_dirs());
  view.mounts.push_back({"/dev/null", "/dev/null", /*writable=*/true});
  view.mounts.push_back({job.inputs.dir, "/judge/" + job.inputs.name});
  view.mounts.push_back(
      {job.scratch.work(), "/judge/builds/scratch/work", /*writable=*/true, false, /*owned_by_child=*/true});
  view.working_dir = "/judge/builds/scratch/work";
  view.root_point = job.scratch.root();
  return view;
}
}  // namespace

CompileOutcome run_compile(const CompileJob& job) {
  SpawnSpec spec;
  spec.sandbox = true;
  spec.syscall_filter = FilterFor::kCompiler;
  spec.subordinate_user = false;
  spec.sandbox_view = compile_view(job);
  std::string working_dir = path_in_sandbox(spec.sandbox_view, spec.sandbox_view.working_dir);
  spec.argv = job.argv;
  spec.argv.insert(spec.argv.begin() + 1, fmt::format("-ffile-prefix-map={}={}", working_dir, kCompileDirectory));
  spec.env = {"PATH=/usr/bin:/bin", "LANG=C", "LC_ALL=C", "HOME=" + working_dir, "TMPDIR=" + working_dir};
  LimitedResult limited = run_limited(spec, job.limits, kKeptCompilerOutputBytes, job.cancel);
  CommandResult& result = limited.command;
  if (result.cancelled) return CompileOutcome{CompileOutcome::Ended::kCancelled, ""};
  if (!result.started) throw JudgeFault{fmt::format("cannot run the C++ compiler: {}", result.error)};
  if (limited.starved)
    throw JudgeFault{fmt::format(
        "the machine is too busy to compile fairly: the compiler got {:.1f} s of CPU time in {:.0f} s, twice (the "
        "second time alone); {}. Judge again with fewer jobs, or on a quieter machine",
        limited.cpu_seconds, limited.wall_seconds, describe_machine_load())};
  CompileOutcome outcome;
  outcome.ended = classify(limited);
  outcome.output = std::move(result.output);
  return outcome;
}

std::string describe_limit(const CompileOutcome& outcome, const CompileLimits& limits) {
  using Ended = CompileOutcome::Ended;
  switch (outcome.ended) {
    case Ended::kTimeLimit:
      return fmt::format("the compiler exceeded its time limit of {} s of CPU time", limits.seconds);
    case Ended::kMemoryLimit:
      return fmt::format("the compiler exceeded its memory limit of {} MiB", limits.memory_bytes >> 20);
    case Ended::kFileSizeLimit:
      return fmt::format("the compiler's output exceeded its file size limit of {} MiB (a runner is a few MiB)",
                         limits.file_size_bytes >> 20);
    case Ended::kProcessLimit:
      return fmt::format("the compiler exceeded its limit of {} processes", limits.max_processes);
    case Ended::kSucceeded:
    case Ended::kFailed:
    case Ended::kCancelled: break;
  }
  return "";
}

}  // namespace judge
