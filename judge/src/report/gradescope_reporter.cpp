// Gradescope's autograder results.json: one test per case worth one point,
// named "PROBLEM: CASE", every problem in one file. A solution that does not
// compile gets each of its cases as a failed test (so the maximum score
// stays the same), the diagnostics in the top-level output. Samples are
// "visible"; hidden cases get the visibility the course chose
// (after_published by default: students see them once grades are
// published, not while they can still resubmit against them).
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "report/reporter.hpp"
#include "util/text.hpp"

namespace judge {
namespace {
using nlohmann::ordered_json;                         // keys in the order written
constexpr std::size_t kGradescopeOutputLimit = 2000;  // characters of printed output per test

class GradescopeReporter : public Reporter {
 public:
  GradescopeReporter(std::FILE* out, std::string hidden_visibility)
      : out_(out), hidden_visibility_(std::move(hidden_visibility)) {}

  void begin_problem(const Problem& problem, const std::string&) override {
    cases_.clear();
    for (const TestCase* test : problem.cases()) cases_.push_back({test->name, test->hidden});
  }
  void case_finished(const TestResult&) override {}

  void problem_finished(const ProblemResult& result) override {
    std::size_t passed = 0;
    auto add = [&](const std::string& name, bool hidden, bool pass, std::string output) {
      tests_.push_back({{"name", fmt::format("{}: {}", result.problem, name)},
                        {"score", pass ? 1 : 0},
                        {"max_score", 1},
                        {"status", pass ? "passed" : "failed"},
                        {"output", output},
                        {"visibility", hidden ? hidden_visibility_ : "visible"}});
    };
    if (result.verdict == Verdict::kCompileError) {
      for (const auto& [name, hidden] : cases_) add(name, hidden, false, "not run: the solution does not compile");
      summary_ += fmt::format("{}: compile_error\n{}\n", result.problem, result.message);
      return;
    }
    for (const TestResult& test : result.tests) {
      bool pass = test.verdict == Verdict::kAccepted;
      passed += pass;
      std::string output;
      if (!pass) {
        output = verdict_name(test.verdict) + ": " + test.message;
        if (!test.details.empty()) output += "\n" + test.details;
        if (!test.hint.empty()) output += "\nhint (a known mistake): " + test.hint;
        if (!test.output.empty())
          output += "\nyour code printed:\n" +
                    cap_characters(test.output, kGradescopeOutputLimit, "\n[... more output dropped]");
      }
      add(test.name, test.hidden, pass, output);
    }
    summary_ += fmt::format("{}: {} ({} of {} cases passed)\n", result.problem, verdict_name(result.verdict), passed,
                            result.tests.size());
  }

  void finish(bool) override {
    ordered_json out = {
        {"output", summary_}, {"output_format", "text"}, {"test_output_format", "text"}, {"tests", tests_}};
    fmt::print(out_, "{}\n", out.dump(2, ' ', false, ordered_json::error_handler_t::replace));
    std::fflush(out_);
  }

 private:
  struct CaseName {
    std::string name;
    bool hidden;
  };
  std::FILE* out_;
  std::string hidden_visibility_;
  std::vector<CaseName> cases_;
  std::string summary_;
  ordered_json tests_ = ordered_json::array();
};
}  // namespace

std::unique_ptr<Reporter> make_gradescope_reporter(std::FILE* out, const std::string& hidden_visibility) {
  return std::make_unique<GradescopeReporter>(out, hidden_visibility);
}

std::string gradescope_judge_failure(const std::string& message) {
  ordered_json out = {{"score", 0},
                      {"output", "The autograder could not judge this submission: " + message},
                      {"output_format", "text"}};
  return out.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

std::unique_ptr<Reporter> make_gradescope_reporter(std::FILE* out) {
  return make_gradescope_reporter(out, kGradescopeHiddenDefault);
}

}  // namespace judge
