// Reporting results. One interface; a reporter per output format
// (formats.hpp lists them by name).
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "package/problem.hpp"
#include "package/verdict.hpp"

namespace judge {

class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual void begin_problem(const Problem& problem, const std::string& solution_display) = 0;
  virtual void progress(const std::string& what) { (void)what; }
  virtual void case_finished(const TestResult& result) = 0;
  // A case as the quick preview judged it (judging/quick_preview.hpp),
  // before any case_finished of the problem; case_finished follows for
  // every case all the same, with the result that counts. Only the text
  // report shows previews.
  virtual void case_previewed(const TestResult& result) { (void)result; }
  // Whether case_previewed shows anything: a preview is not built for
  // nothing.
  virtual bool shows_previews() const { return false; }
  virtual void problem_finished(const ProblemResult& result) = 0;
  // With --all: the problems left out because the learner has not started
  // them (no workspace file). Called once, before finish().
  virtual void not_started(const std::vector<std::string>& slugs) { (void)slugs; }
  // Called once after every problem; `several` when --all was used.
  virtual void finish(bool several) = 0;
};

// Text on `out` as cases finish; colour when `colour` (a tty without
// NO_COLOR); with `live` (a tty), a "case 12/39..." line that the next
// output overwrites.
std::unique_ptr<Reporter> make_text_reporter(std::FILE* out, bool colour, bool live = false);
// One JSON object on `out` at finish(), as docs/cli.md describes;
// {"results": [...]} when several.
std::unique_ptr<Reporter> make_json_reporter(std::FILE* out);
// JUnit XML at finish(): a <testsuite> per problem, a <testcase> per case,
// <failure type="VERDICT">; a <testsuites> root when several.
std::unique_ptr<Reporter> make_junit_reporter(std::FILE* out);
// Exercism's test-runner interface v3 results.json at finish(), for one
// problem (the interface judges one exercise per run).
std::unique_ptr<Reporter> make_exercism_reporter(std::FILE* out);
// The results.json of a run the judge could not carry out (unknown
// exercise, missing file, broken problem): status "error" with `message`.
std::string exercism_judge_failure(const std::string& message);
// Gradescope's autograder results.json at finish(): one point per case,
// every problem in one file; samples visible, hidden cases with
// `hidden_visibility` (one of gradescope_visibilities()).
std::unique_ptr<Reporter> make_gradescope_reporter(std::FILE* out, const std::string& hidden_visibility);
std::unique_ptr<Reporter> make_gradescope_reporter(std::FILE* out);  // hidden cases after_published
// The results.json of a run the judge could not carry out: score 0, the
// reason in the output.
std::string gradescope_judge_failure(const std::string& message);
inline constexpr const char* kGradescopeHiddenDefault = "after_published";
// Gradescope's visibilities of a test, least shown first.
inline std::vector<std::string> gradescope_visibilities() {
  return {"hidden", "after_due_date", "after_published", "visible"};
}

}  // namespace judge
