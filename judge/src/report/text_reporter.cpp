// The text reporter: a line per case as it finishes, failures with their
// messages, details, hints and printed output, then the verdict. Whatever
// may hold a submission's bytes (messages quote exceptions and compiler
// output; printed output; the file name) passes through terminal_safe.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

#include "report/reporter.hpp"
#include "util/terminal.hpp"
#include "util/text.hpp"

namespace judge {
namespace {
constexpr std::size_t kPrintedLinesShown = 10;

class TextReporter : public Reporter {
 public:
  TextReporter(std::FILE* out, bool colour, bool live) : out_(out), colour_(colour), live_(out, live) {}

  void begin_problem(const Problem& problem, const std::string& solution_display) override {
    fmt::print(out_, "{} {}: {}\n", paint(colour_, Tone::kHeading, "judging"), problem.slug,
               terminal_safe(solution_display));
    cases_total_ = problem.cases().size();
    cases_done_ = 0;
    std::fflush(out_);
  }

  void progress(const std::string& what) override {
    if (live_.enabled()) return live_.show(fmt::format("  {}...", what));
    fmt::print(out_, "  {}...\n", what);
    std::fflush(out_);
  }

  void case_finished(const TestResult& test) override {
    live_.clear();
    bool ok = test.verdict == Verdict::kAccepted;
    std::string mark = ok ? paint(colour_, Tone::kPass, "pass") : paint(colour_, Tone::kFail, "FAIL");
    fmt::print(out_, "  {}  {:<6} {:<40} {:>9.1f} ms{}\n", mark, test.hidden ? "hidden" : "sample",
               terminal_safe(test.name), test.time_ms, ok ? "" : "  " + verdict_name(test.verdict));
    if (!ok) {
      fmt::print(out_, "{}", indent_lines(test.message, "        ", 12));
      if (!test.details.empty()) fmt::print(out_, "{}", indent_lines(test.details, "        ", 12));
    }
    if (ok && !test.message.empty()) fmt::print(out_, "{}", indent_lines("note: " + test.message, "        ", 4));
    if (!ok && !test.output.empty()) {
      fmt::print(out_, "        your code printed:\n{}", indent_lines(test.output, "        | ", kPrintedLinesShown));
    }
    if (++cases_done_ < cases_total_) live_.show(fmt::format("  case {}/{}...", cases_done_ + 1, cases_total_));
    std::fflush(out_);
  }

  void problem_finished(const ProblemResult& result) override {
    live_.clear();
    if (result.verdict == Verdict::kCompileError) {
      fmt::print(out_, "{}\n", indent_lines(result.message, "  ", 60));
    }
    // Hints come once every case is known: they compare all the failures.
    for (const Hint& hint : result.hints)
      fmt::print(out_, "  {} {}\n", paint(colour_, Tone::kHint, fmt::format("hint ({}):", explained(hint))),
                 terminal_safe(hint.mistake));
    std::size_t passed = 0;
    for (const TestResult& test : result.tests) passed += test.verdict == Verdict::kAccepted;
    bool ok = result.verdict == Verdict::kAccepted;
    std::string verdict = paint(colour_, ok ? Tone::kPassStrong : Tone::kFailStrong, verdict_name(result.verdict));
    if (result.tests.empty())
      fmt::print(out_, "{}: {}\n", result.problem, verdict);
    else
      fmt::print(out_, "{}: {} ({} of {} cases passed)\n", result.problem, verdict, passed, result.tests.size());
    if (result.from_cache)
      fmt::print(out_, "  (unchanged since it was last judged: the result comes from the cache)\n");
    summary_.push_back(fmt::format("  {:<22} {}", result.problem, verdict));
    std::fflush(out_);
  }

  void finish(bool several) override {
    if (!several) return;
    fmt::print(out_, "\nsummary:\n");
    for (const std::string& line : summary_) fmt::print(out_, "{}\n", line);
  }

 private:
  // "a known mistake, as in case x", "... as in cases x, y and 3 more".
  static std::string explained(const Hint& hint) {
    constexpr std::size_t kNamed = 2;
    std::vector<std::string> names;
    for (std::size_t i = 0; i < hint.cases.size() && i < kNamed; ++i) names.push_back(terminal_safe(hint.cases[i]));
    std::string list = fmt::format("{}", fmt::join(names, ", "));
    if (hint.cases.size() > kNamed) list += fmt::format(" and {} more", hint.cases.size() - kNamed);
    return fmt::format("a known mistake, as in case{} {}", hint.cases.size() == 1 ? "" : "s", list);
  }

  std::FILE* out_;
  bool colour_;
  LiveLine live_;  // "case 12/39...", on a terminal
  std::size_t cases_total_ = 0, cases_done_ = 0;
  std::vector<std::string> summary_;
};

}  // namespace

std::unique_ptr<Reporter> make_text_reporter(std::FILE* out, bool colour, bool live) {
  return std::make_unique<TextReporter>(out, colour, live);
}

}  // namespace judge
