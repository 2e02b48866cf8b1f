// JUnit XML for CI systems (GitLab, Jenkins, GitHub test reporters): a
// <testsuite> per problem, a <testcase> per case (classname = problem,
// name = case, time in seconds), a <failure type="VERDICT"> for each case
// that did not pass, and a compile error as one failing testcase named
// "compile". With several problems the root is <testsuites>.
#include <fmt/format.h>

#include "report/reporter.hpp"
#include "report/xml.hpp"

namespace judge {
namespace {
std::string attr(const std::string& text) { return xml_escape(text, true); }
std::string text(const std::string& text) { return xml_escape(text, false); }

std::string first_line(const std::string& message) { return message.substr(0, message.find('\n')); }

// One <testsuite>, each line indented by `pad`.
std::string testsuite(const ProblemResult& result, const std::string& pad) {
  std::size_t failures = 0;
  double seconds = 0;
  std::string cases;
  for (const TestResult& test : result.tests) {
    seconds += test.time_ms / 1000;
    std::string open = fmt::format(R"({}  <testcase classname="{}" name="{}" time="{:.6f}")", pad, attr(result.problem),
                                   attr(test.name), test.time_ms / 1000);
    if (test.verdict == Verdict::kAccepted) {
      cases += open + "/>\n";
      continue;
    }
    ++failures;
    std::string body = test.message;
    if (!test.details.empty()) body += "\n" + test.details;
    if (!test.hint.empty()) body += "\nhint (a known mistake): " + test.hint;
    cases += open + ">\n";
    cases += fmt::format(R"({}    <failure message="{}" type="{}">{}</failure>)", pad, attr(first_line(test.message)),
                         verdict_name(test.verdict), text(body)) +
             "\n";
    if (!test.output.empty()) cases += fmt::format("{}    <system-out>{}</system-out>\n", pad, text(test.output));
    cases += pad + "  </testcase>\n";
  }
  std::size_t count = result.tests.size();
  if (result.verdict == Verdict::kCompileError) {
    ++failures, ++count;
    cases += fmt::format(
        "{0}  <testcase classname=\"{1}\" name=\"compile\" time=\"0\">\n"
        "{0}    <failure message=\"{2}\" type=\"compile_error\">{3}</failure>\n{0}  </testcase>\n",
        pad, attr(result.problem), attr(result.solution + " does not compile"), text(result.message));
  }
  return fmt::format(
      "{0}<testsuite name=\"{1}\" tests=\"{2}\" failures=\"{3}\" errors=\"0\" skipped=\"0\" time=\"{4:.6f}\">\n"
      "{0}  <properties>\n"
      "{0}    <property name=\"solution\" value=\"{5}\"/>\n"
      "{0}    <property name=\"verdict\" value=\"{6}\"/>\n"
      "{0}  </properties>\n{7}{0}</testsuite>\n",
      pad, attr(result.problem), count, failures, seconds, attr(result.solution), verdict_name(result.verdict), cases);
}

class JunitReporter : public Reporter {
 public:
  explicit JunitReporter(std::FILE* out) : out_(out) {}

  void begin_problem(const Problem&, const std::string&) override {}
  void case_finished(const TestResult&) override {}
  void problem_finished(const ProblemResult& result) override { results_.push_back(result); }

  void finish(bool several) override {
    std::string document = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    if (several) {
      std::size_t tests = 0, failures = 0;
      double seconds = 0;
      std::string suites;
      for (const ProblemResult& result : results_) {
        bool compile_error = result.verdict == Verdict::kCompileError;
        tests += result.tests.size() + compile_error;
        failures += compile_error;
        for (const TestResult& test : result.tests) {
          failures += test.verdict != Verdict::kAccepted;
          seconds += test.time_ms / 1000;
        }
        suites += testsuite(result, "  ");
      }
      document += fmt::format(
          "<testsuites name=\"judge\" tests=\"{}\" failures=\"{}\" errors=\"0\" time=\"{:.6f}\">\n{}</testsuites>\n",
          tests, failures, seconds, suites);
    } else if (!results_.empty()) {
      document += testsuite(results_.front(), "");
    } else {
      document += "<testsuites name=\"judge\" tests=\"0\" failures=\"0\" errors=\"0\" time=\"0\"/>\n";
    }
    fmt::print(out_, "{}", document);
    std::fflush(out_);
  }

 private:
  std::FILE* out_;
  std::vector<ProblemResult> results_;
};
}  // namespace

std::unique_ptr<Reporter> make_junit_reporter(std::FILE* out) { return std::make_unique<JunitReporter>(out); }

}  // namespace judge
