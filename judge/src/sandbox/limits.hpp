// The limits of a runner judging a problem: memory, CPU, file size, the
// grace between SIGTERM and SIGKILL, the time scale of its calls, and the
// environment a sanitized runner needs. The one place they are decided.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "package/problem.hpp"

namespace judge {

// The most bytes a runner's reply may have: kReplyBaseBytes plus
// kReplyPerRequestByte times the size of its request (run/runner.hpp).
inline constexpr std::size_t kReplyBaseBytes = 1u << 20;
inline constexpr std::size_t kReplyPerRequestByte = 4;

struct RunnerLimits {
  // The runner's memory: a memory cgroup's limit where the machine allows
  // one (runner_cgroup.hpp), otherwise its address space (RLIMIT_AS) when
  // `address_space_limit`. 0: unlimited.
  std::uint64_t memory_bytes = 1ull << 30;
  bool address_space_limit = true;  // false for sanitized runners (ASan reserves terabytes)
  int cpu_seconds = 60;             // for the whole session, a backstop
  std::uint64_t file_size_bytes = 16ull << 20;
  int grace_ms = 100;  // SIGTERM, then SIGKILL after this
  // Added to the runner's clean environment ("NAME=value"): sanitizer options.
  std::vector<std::string> extra_env;
  // Multiplies every call's time limit: sanitized runners are slower.
  double time_scale = 1.0;
  // Wall time a call may take beyond its limit while the runner has not yet
  // reached main() and has used less than half the limit in CPU time. On a
  // loaded machine, loading a runner into its sandbox can take seconds in
  // which none of the learner's code runs; a static initializer that spins
  // still times out at the limit.
  int startup_grace_ms = 10000;
};

// The limits of a runner judging `problem`: its memory, a CPU backstop of
// every case's time limit together plus 30 s. With `sanitize` (an
// AddressSanitizer and UBSan build): no RLIMIT_AS (ASan reserves ~20 TB of
// shadow); instead ASan's resident-memory watchdog and malloc limit, a
// memory cgroup with room for the shadow, and time limits kSanitizedTimeScale
// times longer.
RunnerLimits limits_for(const Problem& problem, bool sanitize);

// -O1 with ASan and UBSan runs 2 to 7 times slower.
inline constexpr double kSanitizedTimeScale = 5.0;

// The limits of one sandboxed compile (the compiler, assembler and linker
// together): generous for a real solution (a sanitized Eigen build peaks
// near 700 MiB and 15 s), small enough that a hostile one cannot take the
// machine or fill the disk.
struct CompileLimits {
  std::uint64_t memory_bytes = 2ull << 30;  // a memory cgroup's limit; else RLIMIT_AS per process, doubled
  int seconds = 60;  // CPU time (all processes where a cgroup counts them); the clock backstop is 5 times it
  std::uint64_t file_size_bytes = 256ull << 20;  // any file written (a runner is a few MiB)
  int max_processes = 64;                        // RLIMIT_NPROC, where the compiler runs as a user of its own
};

// The compile limits; JUDGE_COMPILE_SECONDS (1 to 600) sets `seconds`, and
// JUDGE_COMPILE_MEMORY_MB (64 to 65536) `memory_bytes`.
CompileLimits compile_limits();

}  // namespace judge
