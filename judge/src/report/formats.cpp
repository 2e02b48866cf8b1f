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
  std::unique_ptr<Reporter> (*make)(std::FILE* out);
};

std::unique_ptr<Reporter> make_terminal_text_reporter(std::FILE* out) {
  return make_text_reporter(out, wants_colour(out), wants_live_progress(out));
}

constexpr Format kFormats[] = {
    {"text", make_terminal_text_reporter},    {"json", make_json_reporter},
    {"junit", make_junit_reporter},           {"exercism", make_exercism_reporter},
    {"gradescope", make_gradescope_reporter},
};
}  // namespace

std::vector<std::string> output_format_names() {
  std::vector<std::string> names;
  for (const Format& format : kFormats) names.push_back(format.name);
  return names;
}

std::unique_ptr<Reporter> make_reporter(const std::string& name, std::FILE* out) {
  for (const Format& format : kFormats)
    if (name == format.name) return format.make(out);
  throw JudgeFault{
      fmt::format("unknown format '{}'; expected one of: {}", name, fmt::join(output_format_names(), ", "))};
}

}  // namespace judge
