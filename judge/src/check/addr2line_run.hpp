// addr2line on a learner's runner, sandboxed and bounded. The runner's
// debug information is bytes the learner's file made (a crafted file can
// make addr2line take seconds and hundreds of MiB), so addr2line runs as a
// compile does (sandbox/limited_command.hpp): the system's toolchain and
// the runner (read-only) in its view, nothing else; 256 MiB, 10 s, no
// files written. One runs at a time per judge, and a runner gets at most
// kMaxAddr2lineRuns of them, none more once one hit a limit: a file that
// crashes at new addresses in every case gets lines for its first crashes.
// JUDGE_ADDR2LINE (an absolute path) chooses another addr2line.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace judge {

inline constexpr int kMaxAddr2lineRuns = 16;

// What `addr2line -e BINARY ARGUMENTS...` printed; nullopt when it is not
// installed, could not start, failed or hit a limit, or when `binary` has
// had its share of runs.
std::optional<std::string> run_addr2line(const std::string& binary, const std::vector<std::string>& arguments);

}  // namespace judge
