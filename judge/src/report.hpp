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

// Text on `out`; colour when `colour` (a tty without NO_COLOR).
std::unique_ptr<Reporter> make_text_reporter(std::FILE* out, bool colour);
// One JSON object on `out` at finish(), as cli.md describes.
std::unique_ptr<Reporter> make_json_reporter(std::FILE* out);

// The JSON form of one problem's result.
std::string result_json(const ProblemResult& result);

// True when `stream` is a terminal and NO_COLOR is unset or empty.
bool wants_colour(std::FILE* stream);

}  // namespace judge
