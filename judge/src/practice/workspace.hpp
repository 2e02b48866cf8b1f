// The learner's workspace: one file per problem, and a record of every
// judged attempt (workspace/.progress.json).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "package/problem.hpp"
#include "package/verdict.hpp"
#include "util/paths.hpp"

namespace judge {

enum class Progress { kNotStarted, kStarted, kAttempted, kSolved };
std::string progress_name(Progress progress);  // "not started", "started", "attempted", "solved"

// One judging of the learner's own file.
struct Attempt {
  std::string time;  // UTC, ISO 8601: "2026-12-01T20:31:17Z"
  Verdict verdict = Verdict::kAccepted;
  std::size_t passed = 0;  // cases passed
  std::size_t cases = 0;   // cases in all (0 for a compile error)
  double seconds = 0;      // how long the judging took
};

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

// Not started (no workspace file), started (a file, never judged),
// attempted (judged, never accepted), solved (accepted once).
Progress progress_of(const Paths& paths, const std::string& slug);

// Every recorded attempt at `slug`, oldest first.
std::vector<Attempt> attempts_of(const Paths& paths, const std::string& slug);

// The best of `attempts`: accepted first, then the most cases passed, then
// the latest. nullopt when there are none.
std::optional<Attempt> best_attempt(const std::vector<Attempt>& attempts);

// Records a judged run of the learner's own file, unless the file is the
// one the last attempt judged (judging it again is no new attempt).
// Returns why the attempt could not be recorded (a read-only or full
// workspace: "cannot write workspace/.progress.json: No space left on
// device"), empty when it was recorded or needed no record. A workspace
// that cannot be written still judges: the verdict stands.
std::string record_attempt(const Paths& paths, const std::string& slug, const ProblemResult& result, double seconds);

// Prints the one line on stderr that says an attempt was not recorded and
// `why` (record_attempt's answer); nothing when `why` is empty.
void say_attempt_not_recorded(const std::string& why);

}  // namespace judge
