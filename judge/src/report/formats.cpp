// The table of output formats.
#include "report/formats.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "util/errors.hpp"
#include "util/terminal.hpp"

namespace judge {
namespace {
struct Format {
  const char* name;
  std::unique_ptr<Reporter> (*make)(std::FILE* out, const ReportOptions& options);
  bool one_problem = false;
  std::string (*judge_failure)(const std::string& message) = nullptr;
  bool others_code = false;  // a course platform's runner: the code it judges is a student's
};

std::unique_ptr<Reporter> make_terminal_text_reporter(std::FILE* out, const ReportOptions&) {
  return make_text_reporter(out, wants_colour(out), wants_live_progress(out));
}

constexpr Format kFormats[] = {
    {"text", make_terminal_text_reporter},
    {"json", [](std::FILE* out, const ReportOptions&) { return make_json_reporter(out); }},
    {"junit", [](std::FILE* out, const ReportOptions&) { return make_junit_reporter(out); }},
    // Exercism's test-runner interface judges one exercise per run.
    {"exercism", [](std::FILE* out, const ReportOptions&) { return make_exercism_reporter(out); }, true,
     exercism_judge_failure, true},
    {"gradescope",
     [](std::FILE* out, const ReportOptions& options) {
       return make_gradescope_reporter(out, options.gradescope_hidden_visibility);
     },
     false, gradescope_judge_failure, true},
};
}  // namespace

std::vector<std::string> output_format_names() {
  std::vector<std::string> names;
  for (const Format& format : kFormats) names.push_back(format.name);
  return names;
}

std::unique_ptr<Reporter> make_reporter(const std::string& name, std::FILE* out, const ReportOptions& options) {
  for (const Format& format : kFormats)
    if (name == format.name) return format.make(out, options);
  throw JudgeFault{
      fmt::format("unknown format '{}'; expected one of: {}", name, fmt::join(output_format_names(), ", "))};
}

bool format_takes_one_problem(const std::string& name) {
  for (const Format& format : kFormats)
    if (name == format.name) return format.one_problem;
  return false;
}
bool format_judges_others_code(const std::string& name) {
  for (const Format& format : kFormats)
    if (name == format.name) return format.others_code;
  return false;
}

std::string judge_failure_document(const std::string& name, const std::string& message) {
  for (const Format& format : kFormats)
    if (name == format.name && format.judge_failure) return format.judge_failure(message);
  return "";
}

}  // namespace judge
