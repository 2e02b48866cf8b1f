// The sandboxed, bounded addr2line.
#include "check/addr2line_run.hpp"

#include <unistd.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>

#include "sandbox/limited_command.hpp"
#include "sandbox/sandbox.hpp"
#include "sandbox/scratch.hpp"
#include "sandbox/system_mounts.hpp"

namespace judge {
namespace {
constexpr const char* kRunnerInside = "/judge/runner";

// $JUDGE_ADDR2LINE (an absolute path), else addr2line from binutils where
// the system keeps it; empty where there is none.
std::string addr2line_program() {
  const char* chosen = std::getenv("JUDGE_ADDR2LINE");
  if (chosen && *chosen == '/') return access(chosen, X_OK) == 0 ? chosen : "";
  for (const char* path : {"/usr/bin/addr2line", "/bin/addr2line"})
    if (access(path, X_OK) == 0) return path;
  return "";
}

CompileLimits addr2line_limits() {
  CompileLimits limits;
  limits.memory_bytes = 256ull << 20;
  limits.seconds = 10;
  limits.file_size_bytes = 1ull << 20;
  limits.max_processes = 8;
  return limits;
}

// How many runs each runner has had, and those that hit a limit (-1).
std::mutex mutex;
std::map<std::string, int>& runs_of() {
  static std::map<std::string, int> runs;
  return runs;
}
}  // namespace

std::optional<std::string> run_addr2line(const std::string& binary, const std::vector<std::string>& arguments) {
  const std::string program = addr2line_program();
  if (program.empty()) return std::nullopt;
  std::lock_guard<std::mutex> one_at_a_time(mutex);
  int& runs = runs_of()[binary];
  if (runs < 0 || runs >= kMaxAddr2lineRuns) return std::nullopt;
  ++runs;
  std::string error;
  std::unique_ptr<SandboxScratch> scratch = SandboxScratch::create("/tmp", "judge-run-", &error);
  if (!scratch) return std::nullopt;
  SpawnSpec spec;
  spec.sandbox = true;
  spec.syscall_filter = FilterFor::kCompiler;
  spec.subordinate_user = false;
  spec.sandbox_view.mounts = system_mounts(SystemNeeds::kToolchain);
  spec.sandbox_view.mounts.push_back({binary, kRunnerInside});
  spec.sandbox_view.mounts.push_back(
      {scratch->work(), "/judge/work", /*writable=*/true, false, /*owned_by_child=*/true});
  spec.sandbox_view.working_dir = "/judge/work";
  spec.sandbox_view.root_point = scratch->root();
  spec.argv = {program, "-e", path_in_sandbox(spec.sandbox_view, kRunnerInside)};
  spec.argv.insert(spec.argv.end(), arguments.begin(), arguments.end());
  spec.env = {"PATH=/usr/bin:/bin", "LANG=C"};
  LimitedResult result = run_limited(spec, addr2line_limits(), 1 << 20);
  const CommandResult& command = result.command;
  bool hit_a_limit =
      command.timed_out || result.over_cpu || result.out_of_memory || (!command.status.exited && command.status.signal);
  if (hit_a_limit) runs = -1;
  if (!command.started || !command.status.exited || command.status.code != 0) return std::nullopt;
  return command.output;
}

}  // namespace judge
