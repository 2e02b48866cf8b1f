// Exercism's test-runner interface, version 3 (results.json):
//   {"version": 3, "status": "pass"|"fail"|"error", "message": ...,
//    "tests": [{"name", "status", "message", "output", "test_code"}]}
// "error" with the compiler's diagnostics as the message when the solution
// does not compile; per case "fail" for a wrong answer and "error" for a
// crash, a time or a memory limit. `output` is what the learner's code
// printed, capped at 500 characters as the interface requires.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <map>

#include "check/compare.hpp"
#include "report/reporter.hpp"
#include "util/text.hpp"

namespace judge {
namespace {
using nlohmann::ordered_json;                      // keys in the order written: "version" first
constexpr std::size_t kExercismOutputLimit = 500;  // characters, not bytes
constexpr const char* kTruncated = "\n[Output was truncated. Please limit to 500 chars]";

// How the case was called, for the learner: the sample's arguments, or only
// the op for a hidden case.
std::string test_code(const TestCase& test) {
  if (test.hidden) return fmt::format("{}(...)  // a hidden case: its inputs are not shown", test.op);
  std::string arguments;
  for (const auto& [name, value] : test.input.items())
    arguments += fmt::format("{}{} = {}", arguments.empty() ? "" : ", ", name, brief(value, 16));
  std::string code = fmt::format("{}({})", test.op, arguments);
  if (test.expects_invalid_argument)
    code += "  // throws std::invalid_argument";
  else if (test.expect)
    code += "  // expect " + brief(*test.expect, 16);
  return code;
}

std::string test_status(Verdict verdict) {
  switch (verdict) {
    case Verdict::kAccepted: return "pass";
    case Verdict::kWrongAnswer: return "fail";
    default: return "error";
  }
}
class ExercismReporter : public Reporter {
 public:
  explicit ExercismReporter(std::FILE* out) : out_(out) {}

  void begin_problem(const Problem& problem, const std::string&) override {
    cases_.clear();
    for (const TestCase* test : problem.cases()) cases_[test->name] = test_code(*test);
  }
  void case_finished(const TestResult&) override {}

  void problem_finished(const ProblemResult& result) override {
    ordered_json tests = ordered_json::array();
    for (const TestResult& test : result.tests) {
      ordered_json entry = {{"name", test.name}, {"status", test_status(test.verdict)}};
      if (auto code = cases_.find(test.name); code != cases_.end()) entry["test_code"] = code->second;
      if (test.verdict != Verdict::kAccepted) {
        std::string message = test.message;
        if (!test.details.empty()) message += "\n" + test.details;
        if (!test.hint.empty()) message += "\nhint (a known mistake): " + test.hint;
        entry["message"] = message;
      }
      if (!test.output.empty()) entry["output"] = cap_characters(test.output, kExercismOutputLimit, kTruncated);
      tests.push_back(entry);
    }
    ordered_json out = {{"version", 3}, {"tests", tests}};
    if (result.verdict == Verdict::kCompileError) {
      out["status"] = "error";
      out["message"] = result.message;
    } else {
      out["status"] = result.verdict == Verdict::kAccepted ? "pass" : "fail";
      out["message"] = nullptr;
    }
    results_.push_back(out);
  }

  void finish(bool) override {
    // One problem per run: `judge run` refuses more with this format.
    ordered_json out = results_.empty() ? ordered_json::object() : results_.front();
    fmt::print(out_, "{}\n", out.dump(2, ' ', false, ordered_json::error_handler_t::replace));
    std::fflush(out_);
  }

 private:
  std::FILE* out_;
  std::map<std::string, std::string> cases_;
  ordered_json results_ = ordered_json::array();
};
}  // namespace

std::unique_ptr<Reporter> make_exercism_reporter(std::FILE* out) { return std::make_unique<ExercismReporter>(out); }

std::string exercism_judge_failure(const std::string& message) {
  ordered_json out = {{"version", 3}, {"status", "error"}, {"message", message}, {"tests", ordered_json::array()}};
  return out.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace judge
