// The learner's workspace: one file per problem, and their progress.
#pragma once

#include <string>

#include "spec/problem.hpp"
#include "spec/verdict.hpp"
#include "util/paths.hpp"

namespace judge {

enum class Progress { kNotStarted, kAttempted, kSolved };
std::string progress_name(Progress progress);  // "not started", "attempted", "solved"

// workspace/<slug>.hpp
std::string workspace_file(const Paths& paths, const std::string& slug);

// The file a command judges for `slug`: the reference solution with
// `reference`, else `solution_file` when not empty, else the workspace file,
// which sets *own_file. Throws JudgeFault, pointing to `judge start`, when
// the workspace file does not exist yet.
std::string solution_to_judge(const Paths& paths, const std::string& slug, const std::string& solution_file,
                              bool reference, bool* own_file = nullptr);

// Copies the problem's stub to the workspace file unless one exists.
// Returns true when it created the file; false when it was already there.
// Throws JudgeFault when the copy fails.
bool start_problem(const Paths& paths, const Problem& problem);

// What the learner has done with a problem: solved once accepted, attempted
// once judged or started.
Progress progress_of(const Paths& paths, const std::string& slug);

// Records a judged run of the learner's own file.
void record_progress(const Paths& paths, const std::string& slug, Verdict verdict);

}  // namespace judge
