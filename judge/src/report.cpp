// Text and JSON reporters.
#include "report.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sstream>

namespace judge {
namespace {
constexpr std::size_t kPrintedLinesShown = 10;

nlohmann::json to_json(const ProblemResult& result) {
  nlohmann::json tests = nlohmann::json::array();
  for (const TestResult& test : result.tests)
    tests.push_back({{"name", test.name},
                     {"hidden", test.hidden},
                     {"verdict", verdict_name(test.verdict)},
                     {"time_ms", std::round(test.time_ms * 1000) / 1000},
                     {"message", test.message}});
  for (std::size_t i = 0; i < result.tests.size(); ++i)
    if (!result.tests[i].hint.empty()) tests[i]["hint"] = result.tests[i].hint;
  nlohmann::json out = {{"problem", result.problem}, {"verdict", verdict_name(result.verdict)}, {"tests", tests}};
  if (!result.message.empty()) out["message"] = result.message;
  out["solution"] = result.solution;
  return out;
}

std::string indent(const std::string& text, const std::string& prefix, std::size_t max_lines) {
  std::istringstream in(text);
  std::string line, out;
  std::size_t count = 0;
  while (std::getline(in, line)) {
    if (count++ < max_lines) out += prefix + line + "\n";
  }
  if (count > max_lines) out += fmt::format("{}... ({} more lines)\n", prefix, count - max_lines);
  return out;
}

class TextReporter : public Reporter {
 public:
  TextReporter(std::FILE* out, bool colour, bool live) : out_(out), colour_(colour), live_(live) {}

  void begin_problem(const Problem& problem, const std::string& solution_display) override {
    fmt::print(out_, "{} {}: {}\n", paint("1", "judging"), problem.slug, solution_display);
    cases_total_ = problem.cases().size();
    cases_done_ = 0;
    std::fflush(out_);
  }

  void progress(const std::string& what) override {
    if (live_) return show_live(fmt::format("  {}...", what));
    fmt::print(out_, "  {}...\n", what);
    std::fflush(out_);
  }

  void case_finished(const TestResult& test) override {
    clear_live();
    bool ok = test.verdict == Verdict::kAccepted;
    std::string mark = ok ? paint("32", "pass") : paint("31", "FAIL");
    fmt::print(out_, "  {}  {:<6} {:<40} {:>9.1f} ms{}\n", mark, test.hidden ? "hidden" : "sample", test.name,
               test.time_ms, ok ? "" : "  " + verdict_name(test.verdict));
    if (!ok) {
      fmt::print(out_, "{}", indent(test.message, "        ", 12));
      if (!test.details.empty()) fmt::print(out_, "{}", indent(test.details, "        ", 12));
      if (!test.hint.empty()) fmt::print(out_, "        {} {}\n", paint("33", "hint (a known mistake):"), test.hint);
    }
    if (ok && !test.message.empty()) fmt::print(out_, "{}", indent("note: " + test.message, "        ", 4));
    if (!ok && !test.output.empty()) {
      fmt::print(out_, "        your code printed:\n{}", indent(test.output, "        | ", kPrintedLinesShown));
    }
    if (++cases_done_ < cases_total_) show_live(fmt::format("  case {}/{}...", cases_done_ + 1, cases_total_));
    std::fflush(out_);
  }

  void problem_finished(const ProblemResult& result) override {
    clear_live();
    if (result.verdict == Verdict::kCompileError) {
      fmt::print(out_, "{}\n", indent(result.message, "  ", 60));
    }
    std::size_t passed = 0;
    for (const TestResult& test : result.tests) passed += test.verdict == Verdict::kAccepted;
    bool ok = result.verdict == Verdict::kAccepted;
    std::string verdict = paint(ok ? "32;1" : "31;1", verdict_name(result.verdict));
    if (result.tests.empty())
      fmt::print(out_, "{}: {}\n", result.problem, verdict);
    else
      fmt::print(out_, "{}: {} ({} of {} cases passed)\n", result.problem, verdict, passed, result.tests.size());
    if (result.from_cache) fmt::print(out_, "  (unchanged since it was last judged: the result comes from the cache)\n");
    summary_.push_back(fmt::format("  {:<22} {}", result.problem, verdict));
    std::fflush(out_);
  }

  void finish(bool several) override {
    if (!several) return;
    fmt::print(out_, "\nsummary:\n");
    for (const std::string& line : summary_) fmt::print(out_, "{}\n", line);
  }

 private:
  std::string paint(const char* code, const std::string& text) const {
    return colour_ ? fmt::format("\033[{}m{}\033[0m", code, text) : text;
  }
  // On a terminal: a line that the next output overwrites ("case 12/39...").
  void show_live(const std::string& text) {
    if (!live_) return;
    fmt::print(out_, "\r\033[K{}", text);
    live_shown_ = true;
    std::fflush(out_);
  }
  void clear_live() {
    if (live_shown_) fmt::print(out_, "\r\033[K");
    live_shown_ = false;
  }
  std::FILE* out_;
  bool colour_;
  bool live_;
  bool live_shown_ = false;
  std::size_t cases_total_ = 0, cases_done_ = 0;
  std::vector<std::string> summary_;
};

class JsonReporter : public Reporter {
 public:
  explicit JsonReporter(std::FILE* out) : out_(out) {}
  void begin_problem(const Problem&, const std::string&) override {}
  void case_finished(const TestResult&) override {}
  void problem_finished(const ProblemResult& result) override { results_.push_back(to_json(result)); }
  void finish(bool several) override {
    nlohmann::json out = several ? nlohmann::json{{"results", results_}}
                                 : (results_.empty() ? nlohmann::json::object() : results_.front());
    fmt::print(out_, "{}\n", out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    std::fflush(out_);
  }

 private:
  std::FILE* out_;
  nlohmann::json results_ = nlohmann::json::array();
};
}  // namespace

std::unique_ptr<Reporter> make_text_reporter(std::FILE* out, bool colour, bool live) {
  return std::make_unique<TextReporter>(out, colour, live);
}

std::unique_ptr<Reporter> make_json_reporter(std::FILE* out) { return std::make_unique<JsonReporter>(out); }

std::string result_json(const ProblemResult& result) {
  return to_json(result).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

bool wants_live_progress(std::FILE* stream) {
  const char* term = std::getenv("TERM");
  return isatty(fileno(stream)) && !(term && std::string(term) == "dumb");
}

bool wants_colour(std::FILE* stream) {
  const char* no_colour = std::getenv("NO_COLOR");
  return isatty(fileno(stream)) && !(no_colour && *no_colour);
}

}  // namespace judge
