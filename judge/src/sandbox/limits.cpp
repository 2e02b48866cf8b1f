// limits_for (plain and sanitized runners) and compile_limits.
#include "sandbox/limits.hpp"

#include <fmt/format.h>

#include <cstdlib>

#include "util/environment.hpp"

namespace judge {
namespace {
RunnerLimits sanitized(RunnerLimits limits, const Problem& problem) {
  // A memory cgroup, where there is one, still bounds what is really used,
  // with room for the shadow and the quarantine above ASan's own limit.
  limits.address_space_limit = false;
  limits.memory_bytes = static_cast<std::uint64_t>(problem.memory_mb * 3 / 2 + 512) << 20;
  limits.time_scale = kSanitizedTimeScale;
  limits.cpu_seconds = static_cast<int>(limits.cpu_seconds * kSanitizedTimeScale);
  // In place of RLIMIT_AS: a single allocation over the limit fails
  // (std::bad_alloc, memory_limit_exceeded), and resident memory, ASan's own
  // included, is capped with room for the shadow and the quarantine.
  long memory_mb = problem.memory_mb;
  std::string asan = fmt::format(
      "ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:handle_abort=1:detect_leaks=0:symbolize=0:"
      "allocator_may_return_null=1:malloc_limit_mb={}:hard_rss_limit_mb={}:quarantine_size_mb=64:"
      "detect_stack_use_after_return=0:print_summary=0",
      memory_mb, memory_mb * 3 / 2 + 256);
  limits.extra_env = {asan, "UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1:symbolize=0",
                      "JUDGE_NO_CRASH_TRACE=1"};
  return limits;
}

}  // namespace

CompileLimits compile_limits() {
  CompileLimits limits;
  limits.seconds = static_cast<int>(environment_integer("JUDGE_COMPILE_SECONDS", 1, 600, limits.seconds));
  limits.memory_bytes = static_cast<std::uint64_t>(environment_integer(
                            "JUDGE_COMPILE_MEMORY_MB", 64, 65536, static_cast<std::int64_t>(limits.memory_bytes >> 20)))
                        << 20;
  return limits;
}

RunnerLimits limits_for(const Problem& problem, bool sanitize) {
  RunnerLimits limits;
  limits.memory_bytes = static_cast<std::uint64_t>(problem.memory_mb) << 20;
  long total_ms = 0;
  for (const TestCase* test : problem.cases()) total_ms += test->time_ms;
  limits.cpu_seconds = static_cast<int>(total_ms / 1000) + 30;
  return sanitize ? sanitized(limits, problem) : limits;
}

}  // namespace judge
