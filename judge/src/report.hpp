// Reporting results: text for a person (as cases finish), JSON for a program.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "spec.hpp"
#include "verdict.hpp"

namespace judge {

class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual void begin_problem(const Problem& problem, const std::string& solution_display) = 0;
  virtual void progress(const std::string& what) { (void)what; }
  virtual void case_finished(const TestResult& result) = 0;
  virtual void problem_finished(const ProblemResult& result) = 0;
  // Called once after every problem; `several` when --all was used.
  virtual void finish(bool several) = 0;
};

// Text on `out`; colour when `colour` (a tty without NO_COLOR); with `live`
// (a tty), a "case 12/39..." line that the next output overwrites.
std::unique_ptr<Reporter> make_text_reporter(std::FILE* out, bool colour, bool live = false);
// One JSON object on `out` at finish(), as cli.md describes.
std::unique_ptr<Reporter> make_json_reporter(std::FILE* out);

// JUnit XML at finish() (report_junit.cpp): a <testsuite> per problem, a
// <testcase> per case, <failure type="VERDICT">; a <testsuites> root when
// several problems were judged.
std::unique_ptr<Reporter> make_junit_reporter(std::FILE* out);
// Exercism's test-runner interface v3 results.json at finish()
// (report_exercism.cpp); {"results": [...]} when several.
std::unique_ptr<Reporter> make_exercism_reporter(std::FILE* out);
// Gradescope's autograder results.json at finish() (report_gradescope.cpp):
// one point per case, every problem in one file.
std::unique_ptr<Reporter> make_gradescope_reporter(std::FILE* out);

// `text` escaped for XML 1.0 character data (`attribute`: for a quoted
// attribute value): &<>"' as entities, invalid UTF-8 as U+FFFD, control
// characters XML cannot carry as the text \xNN.
std::string xml_escape(const std::string& text, bool attribute);
// `text` cut after `limit` UTF-8 characters, with `note` appended when cut.
std::string cap_characters(const std::string& text, std::size_t limit, const std::string& note);

// The JSON form of one problem's result.
std::string result_json(const ProblemResult& result);

// True when `stream` is a terminal that can overwrite a line (TERM is not "dumb").
bool wants_live_progress(std::FILE* stream);
// True when `stream` is a terminal and NO_COLOR is unset or empty.
bool wants_colour(std::FILE* stream);

}  // namespace judge
