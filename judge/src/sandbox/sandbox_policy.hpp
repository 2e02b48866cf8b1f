// The command line's side of the sandbox: which files no sandboxed child
// may see, and whether this machine may judge other people's code
// (sandbox/untrusted_code.hpp).
#pragma once

#include <string>
#include <vector>

#include "sandbox/untrusted_code.hpp"
#include "util/paths.hpp"

namespace judge {

// Hides the judge's own files from every sandboxed child this process
// starts (sandbox/hidden_paths.hpp): its problems, solutions and harness,
// its caches and the workspace, wherever they are installed.
void hide_judge_files(const Paths& paths);

// True when `file` belongs to another user than the one judging (root
// judging a student's file, say): judging it is judging other people's
// code. False for a file that cannot be read.
bool owned_by_someone_else(const std::string& file);

// Checks the sandbox before `command` judges code. `others_code`: the code
// is someone else's (grade, the course platforms' formats, another user's
// file); `trusted`: --trust-submissions was given.
//   - Other people's code on a machine that lacks a protection it needs,
//     not trusted: throws JudgeFault with one line saying what is missing,
//     what that would allow, that `judge doctor` says how to get it, and
//     that --trust-submissions judges anyway.
//   - Otherwise returns the note the verdict carries: "" when nothing is
//     missing; what is missing for a learner's own code ("your code ran
//     without ..."), or what trusting gave up.
std::string check_sandbox_for(const std::string& command, bool others_code, bool trusted);
// The same decision for given gaps (sandbox/untrusted_code.hpp).
std::string check_sandbox_for(const std::string& command, bool others_code, bool trusted,
                              const std::vector<SandboxGap>& gaps);

// What --trust-submissions says in every command's --help.
inline constexpr const char* kTrustSubmissionsHelp =
    "judge other people's code even where this machine lacks a protection it needs (see judge doctor): "
    "a submission may then read the hidden cases, write your files or starve the machine";

}  // namespace judge
