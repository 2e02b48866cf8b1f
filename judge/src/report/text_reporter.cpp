// The text reporter: a line per case as it finishes, failures with their
// messages, note, input, expected and got, hints and printed output, then
// the verdict. Everything is kept within the output's width (the full text
// is in --format json), and a failure that repeats an earlier one word for
// word is counted, not printed again. Cases the quick preview judged come
// first (case_previewed); the -O2 runner's result of such a case is
// printed only where its verdict differs, with a note. Whatever may hold a submission's
// bytes (messages quote exceptions and compiler output; printed output; the
// file name) passes through terminal_safe.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <vector>

#include "check/compare.hpp"
#include "report/reporter.hpp"
#include "util/terminal.hpp"
#include "util/text.hpp"

namespace judge {
namespace {
constexpr std::size_t kPrintedLinesShown = 10;
constexpr std::size_t kMessageLines = 4;  // a longer message is cut; the JSON has it whole
// A shrunk example's input: each argument over at most this many lines,
// lists of up to kWholeListEntries shown entry by entry.
constexpr std::size_t kShrunkLinesPerArgument = 6;
constexpr std::size_t kWholeListEntries = 64;
// The first failures show their note, input, expected and got, and what
// the code printed; later ones their message (the JSON has all of it).
constexpr std::size_t kDetailedFailures = 3;
constexpr const char* kIndent = "        ";

// The characters `text` shows, colour codes aside.
std::size_t plain_size(const std::string& text) {
  std::size_t size = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\033') {
      while (i < text.size() && text[i] != 'm') ++i;
      continue;
    }
    size += (static_cast<unsigned char>(text[i]) & 0xc0) != 0x80;
  }
  return size;
}

// A line cut to its last `width` characters, with "..." in front when cut
// (a path: its end names the file).
std::string fit_left(const std::string& line, std::size_t width) {
  std::size_t count = character_count(line);
  if (count <= width) return line;
  std::size_t drop = count - (width > 3 ? width - 3 : 0), at = 0;
  while (drop > 0 && at < line.size()) {
    ++at;
    while (at < line.size() && (static_cast<unsigned char>(line[at]) & 0xc0) == 0x80) ++at;
    --drop;
  }
  return "..." + line.substr(at);
}

// `text` word-wrapped to `width`: its first line behind `first`, the rest
// behind `rest`; at most `max_lines` lines, the last marked when cut.
std::string hanging(const std::string& first, const std::string& rest, const std::string& text, std::size_t width,
                    std::size_t max_lines) {
  std::size_t room = std::max<std::size_t>(width, character_count(first) + 20) - character_count(first);
  std::vector<std::string> lines = wrap_words(terminal_safe(text), room);
  std::string out;
  for (std::size_t i = 0; i < lines.size() && i < max_lines; ++i) {
    bool cut = i + 1 == max_lines && lines.size() > max_lines;
    out += (i == 0 ? first : rest) + (cut ? fit_characters(lines[i] + " ...", room) : lines[i]) + "\n";
  }
  return out;
}

// `text` behind `label`, its later lines lined up under the text.
std::string labelled(const std::string& label, const std::string& text, std::size_t width, std::size_t max_lines) {
  std::string first = kIndent + label;
  return hanging(first, std::string(character_count(first), ' '), text, width, max_lines);
}

// A value as short as it must be to fit: fewer entries per list until it does.
std::string fitted_value(const nlohmann::json& value, std::size_t width) {
  std::string text;
  for (std::size_t items : {16, 8, 4, 2}) {
    text = brief(value, items);
    if (character_count(text) <= width) return text;
  }
  return fit_characters(text, width);
}

class TextReporter : public Reporter {
 public:
  TextReporter(std::FILE* out, bool colour, bool live)
      : out_(out), colour_(colour), live_(out, live), width_(output_width(out)) {}

  void begin_problem(const Problem& problem, const std::string& solution_display) override {
    std::string head = fmt::format("judging {}: ", problem.slug);
    std::size_t room = std::max<std::size_t>(width_, head.size() + 20) - head.size();
    fmt::print(out_, "{}{}\n", head.replace(0, 7, paint(colour_, Tone::kHeading, "judging")),
               fit_left(terminal_safe(solution_display), room));
    cases_total_ = problem.cases().size();
    cases_done_ = 0;
    tolerance_ = problem.tolerance;
    tolerance_said_ = false;
    failures_shown_ = 0;
    repeats_.clear();
    previewed_.clear();
    held_.clear();
    std::fflush(out_);
  }

  void progress(const std::string& what) override {
    if (live_.enabled()) return live_.show(fmt::format("  {}...", what));
    fmt::print(out_, "  {}...\n", what);
    std::fflush(out_);
  }

  void case_finished(const TestResult& test) override {
    live_.clear();
    auto previewed = previewed_.find(test.name);
    if (previewed == previewed_.end()) {
      bool ok = test.verdict == Verdict::kAccepted;
      if (!ok && statistical(test))
        held_.push_back(test);
      else if (ok || !repeated(test))
        print_case(test);
      ++cases_done_;
    } else if (previewed->second != test.verdict) {
      print_case(test);
      fmt::print(out_, "{}",
                 labelled("note: ",
                          fmt::format("the quick build's run of this case, above, gave {}; this is the -O2 runner's "
                                      "result, which counts. A result that changes with the optimizer usually means "
                                      "undefined behaviour (an index out of range, an uninitialized variable, a signed "
                                      "overflow): `judge run --sanitize` looks for it.",
                                      verdict_name(previewed->second)),
                          width_, kMessageLines + 2));
    }
    show_progress();
    std::fflush(out_);
  }

  bool shows_previews() const override { return true; }

  // Printed as a case is; case_finished prints the same case again only
  // where the -O2 runner judged it otherwise.
  void case_previewed(const TestResult& test) override {
    live_.clear();
    bool ok = test.verdict == Verdict::kAccepted;
    if (ok || !repeated(test)) print_case(test);
    if (previewed_.emplace(test.name, test.verdict).second) ++cases_done_;
    show_progress();
    std::fflush(out_);
  }

  void problem_finished(const ProblemResult& result) override {
    live_.clear();
    for (const TestResult& test : held_)
      if (!repeated(test)) print_case(test);
    held_.clear();
    print_repeats();
    if (failures_shown_ > kDetailedFailures)
      fmt::print(out_, "  (only the first {} failures show their input; `--format json` has every case's)\n",
                 kDetailedFailures);
    if (result.verdict == Verdict::kCompileError) {
      fmt::print(out_, "{}\n", indent_lines(result.message, "  ", 60, width_));
    }
    // Hints come once every case is known: they compare all the failures.
    for (const Hint& hint : result.hints) {
      std::string label = fit_characters(fmt::format("hint ({}):", explained(hint)), width_ - 2);
      fmt::print(out_, "  {}\n{}", paint(colour_, Tone::kHint, label),
                 hanging("    ", "    ", hint.mistake, width_, 8));
    }
    if (!result.hints_cut_short.empty())
      fmt::print(out_, "{}",
                 hanging("  hints cut short: ", "    ",
                         "the search among the known mistakes did not finish, so a mistake may go unnamed (" +
                             result.hints_cut_short + "); the next run searches again",
                         width_, 16));
    for (const ShrunkExample& example : result.shrunk) print_shrunk(example);
    if (!result.sandbox_note.empty())
      fmt::print(out_, "{}", hanging("  note: ", "    ", result.sandbox_note + " (see judge doctor)", width_, 16));
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

  void not_started(const std::vector<std::string>& slugs) override {
    for (const std::string& slug : slugs) summary_.push_back(fmt::format("  {:<22} not started", slug));
    if (!slugs.empty())
      fmt::print(out_, "not started: {} (`judge start PROBLEM` begins one)\n", fmt::join(slugs, ", "));
  }

  void finish(bool several) override {
    if (!several) return;
    fmt::print(out_, "\nsummary:\n");
    for (const std::string& line : summary_) fmt::print(out_, "{}\n", line);
  }

 private:
  // Failures that repeat an earlier one's verdict and message: their names.
  struct Repeat {
    std::vector<std::string> more;
  };

  void show_progress() {
    if (cases_done_ < cases_total_) live_.show(fmt::format("  case {}/{}...", cases_done_ + 1, cases_total_));
  }

  // A failure of a statistical test ("came up with frequency 0.57"), a
  // sample's too: printed after the others, which say more plainly what is
  // wrong (a fixed answer's "expected [1,0,2,1], got [1,0,2]").
  static bool statistical(const TestResult& test) { return test.failure_kind == "distribution"; }

  // True (and counted) when `test` failed exactly as an earlier case did.
  bool repeated(const TestResult& test) {
    auto [entry, added] = repeats_.try_emplace({verdict_name(test.verdict), test.message});
    if (added)
      order_.push_back(entry);
    else
      entry->second.more.push_back(test.name);
    return !added;
  }

  void print_case(const TestResult& test) {
    bool ok = test.verdict == Verdict::kAccepted;
    std::string mark = ok ? paint(colour_, Tone::kPass, "pass") : paint(colour_, Tone::kFail, "FAIL");
    // In columns when they fit; else without padding, the name cut if it must be.
    std::string where = fmt::format("  {}  {:<6} ", mark, test.hidden ? "hidden" : "sample");
    std::string name = terminal_safe(test.name), time = fmt::format("{:.1f} ms", test.time_ms);
    std::string verdict = ok ? "" : "  " + verdict_name(test.verdict);
    std::string line = fmt::format("{}{:<40} {:>12}{}", where, name, time, verdict);
    if (plain_size(line) > width_) {
      // Never cut a name (a learner looks the case up by it): too long
      // for the line, it goes whole on a line of its own.
      std::string compact = fmt::format("{}{}  {}{}", where, name, time, verdict);
      line = plain_size(compact) <= width_ ? compact : fmt::format("{}{}\n        {}{}", where, name, time, verdict);
    }
    fmt::print(out_, "{}\n", line);
    if (ok) {
      if (!test.message.empty()) fmt::print(out_, "{}", labelled("note: ", test.message, width_, kMessageLines));
      return;
    }
    if (test.failure_kind == "value" && !tolerance_said_) {
      fmt::print(out_, "{}",
                 labelled("",
                          fmt::format("(numbers match within atol {} or rtol {})", format_number(tolerance_.atol),
                                      format_number(tolerance_.rtol)),
                          width_, 2));
      tolerance_said_ = true;
    }
    fmt::print(out_, "{}", labelled("", test.message, width_, kMessageLines));
    if (++failures_shown_ > kDetailedFailures) return;
    if (!test.note.empty()) fmt::print(out_, "{}", labelled("case:     ", test.note, width_, 3));
    if (!test.input.is_null()) print_input(test.input);
    if (!test.details.empty()) fmt::print(out_, "{}", indent_lines(test.details, kIndent, 12, width_));
    if (!test.output.empty()) {
      fmt::print(out_, "{}your code printed:\n{}", kIndent,
                 indent_lines(test.output, std::string(kIndent) + "| ", kPrintedLinesShown, width_));
    }
  }

  // A failure shrunk after judging: where it came from and how far, then
  // the smaller input, the check's message and expected and got on it.
  void print_shrunk(const ShrunkExample& example) {
    if (!example.shrunk) {
      std::string line = fmt::format("  {} ({})", example.not_shrunk, example.from_case);
      return (void)fmt::print(out_, "{}\n", terminal_safe(fit_characters(line, width_)));
    }
    std::string head = fmt::format("shrunk from {}, {}:", example.from_case, example.sizes);
    fmt::print(out_, "  {}\n", paint(colour_, Tone::kHint, terminal_safe(fit_characters(head, width_ - 2))));
    print_input(example.input, kShrunkLinesPerArgument);
    fmt::print(out_, "{}", labelled("", example.message, width_, kMessageLines));
    if (!example.details.empty()) fmt::print(out_, "{}", indent_lines(example.details, kIndent, 12, width_));
  }

  // A map input one argument a line, each as short as it must be to fit.
  // With `lines_per_argument` above 1 (a shrunk example, small by
  // construction and shown for its every number), an argument whose text
  // fits in that many lines is shown whole, wrapped.
  void print_input(const nlohmann::json& input, std::size_t lines_per_argument = 1) {
    std::string label = std::string(kIndent) + "input:    ", under(label.size(), ' ');
    std::size_t room = std::max<std::size_t>(width_, label.size() + 20) - label.size();
    if (!input.is_object() || input.empty())
      return (void)fmt::print(out_, "{}{}\n", label, terminal_safe(fitted_value(input, room)));
    bool first = true;
    for (const auto& [name, value] : input.items()) {
      std::string head = name + ": ";
      std::size_t left = room > head.size() + 10 ? room - head.size() : 10;
      std::string whole = brief(value, kWholeListEntries);
      std::size_t length = character_count(whole);
      if (lines_per_argument > 1 && length > left && length <= left * lines_per_argument * 3 / 4) {
        std::string lead = (first ? label : under) + terminal_safe(head);
        fmt::print(out_, "{}",
                   hanging(lead, std::string(character_count(lead), ' '), whole, width_, lines_per_argument));
      } else {
        fmt::print(out_, "{}{}{}\n", first ? label : under, terminal_safe(head),
                   terminal_safe(fitted_value(value, left)));
      }
      first = false;
    }
  }

  void print_repeats() {
    for (auto entry : order_) {
      const Repeat& repeat = entry->second;
      if (repeat.more.empty()) continue;
      const std::string& message = entry->first.second;
      std::string line = fit_characters(
          fmt::format("  FAIL  {} more case{}: {}", repeat.more.size(), repeat.more.size() == 1 ? "" : "s",
                      terminal_safe(message.substr(0, message.find('\n')))),
          width_);
      fmt::print(out_, "{}\n", line.replace(2, 4, paint(colour_, Tone::kFail, "FAIL")));
      // Every one named, whole: a learner looks a case up by its name.
      fmt::print(
          out_, "{}",
          hanging("        ", "        ", fmt::format("{}", fmt::join(repeat.more, ", ")), width_, repeat.more.size()));
    }
    order_.clear();
  }

  // "a known mistake, as in case x", "... as in cases x, y and 3 more".
  static std::string explained(const Hint& hint) {
    constexpr std::size_t kNamed = 2;
    std::vector<std::string> names;
    for (std::size_t i = 0; i < hint.cases.size() && i < kNamed; ++i) names.push_back(terminal_safe(hint.cases[i]));
    std::string list = fmt::format("{}", fmt::join(names, ", "));
    if (hint.cases.size() > kNamed) list += fmt::format(" and {} more", hint.cases.size() - kNamed);
    return fmt::format("a known mistake, as in case{} {}", hint.cases.size() == 1 ? "" : "s", list);
  }

  using RepeatKey = std::pair<std::string, std::string>;  // verdict, message
  std::FILE* out_;
  bool colour_;
  LiveLine live_;  // "case 12/39...", on a terminal
  std::size_t width_;
  std::size_t cases_total_ = 0, cases_done_ = 0;
  Tolerance tolerance_;
  bool tolerance_said_ = false;
  std::size_t failures_shown_ = 0;
  std::map<RepeatKey, Repeat> repeats_;
  std::vector<std::map<RepeatKey, Repeat>::iterator> order_;  // in the order first seen
  std::map<std::string, Verdict> previewed_;                  // the cases shown from the quick preview, by name
  std::vector<TestResult> held_;                              // statistical failures, printed once every case is known
  std::vector<std::string> summary_;
};

}  // namespace

std::unique_ptr<Reporter> make_text_reporter(std::FILE* out, bool colour, bool live) {
  return std::make_unique<TextReporter>(out, colour, live);
}

}  // namespace judge
