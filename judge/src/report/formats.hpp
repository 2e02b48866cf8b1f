// The output formats of `judge run`, by name: the one table that the
// command line's choices and the reporters come from.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "report/reporter.hpp"

namespace judge {

// "text", "json", "junit", "exercism", "gradescope", in that order.
std::vector<std::string> output_format_names();

// What a format may be told besides where to write.
struct ReportOptions {
  std::string gradescope_hidden_visibility = kGradescopeHiddenDefault;
};

// The reporter for format `name` writing to `out` (text: with colour and a
// live line when `out` is a terminal that wants them). Throws JudgeFault
// for an unknown name.
std::unique_ptr<Reporter> make_reporter(const std::string& name, std::FILE* out, const ReportOptions& options = {});

// Whether format `name` reports one problem only (exercism).
bool format_takes_one_problem(const std::string& name);

// Whether format `name` is a course platform's runner (exercism,
// gradescope): the code it judges is a student's, not the user's own.
bool format_judges_others_code(const std::string& name);

// What format `name` writes when the judge cannot carry out the run, for
// a platform that reads only the file (exercism, gradescope); "" for the
// others, whose readers see the exit status and stderr.
std::string judge_failure_document(const std::string& name, const std::string& message);

}  // namespace judge
