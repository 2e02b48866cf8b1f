// The CI and course formats of `judge run`: JUnit XML (well-formed whatever
// the learner printed, one failing testcase for a compile error, a
// <testsuites> root for several problems), Exercism's results.json v3 and
// Gradescope's results.json.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "report/reporter.hpp"
#include "report/xml.hpp"
#include "util/text.hpp"

namespace judge {
namespace {
namespace fs = std::filesystem;

// Runs `reporter` over `results` and returns what it wrote; `previewed`,
// when given, are shown as the quick preview's results before the cases.
std::string render(std::unique_ptr<Reporter> (*make)(std::FILE*), const std::vector<ProblemResult>& results,
                   const Problem* problem = nullptr, const std::vector<TestResult>& previewed = {}) {
  char* buffer = nullptr;
  std::size_t size = 0;
  std::FILE* out = open_memstream(&buffer, &size);
  {
    std::unique_ptr<Reporter> reporter = make(out);
    for (const ProblemResult& result : results) {
      Problem fallback;
      fallback.slug = result.problem;
      reporter->begin_problem(problem ? *problem : fallback, result.solution);
      for (const TestResult& test : previewed) reporter->case_previewed(test);
      for (const TestResult& test : result.tests) reporter->case_finished(test);
      reporter->problem_finished(result);
    }
    reporter->finish(results.size() > 1);
  }
  std::fclose(out);
  std::string text(buffer, size);
  std::free(buffer);
  return text;
}

TestResult test_result(const std::string& name, Verdict verdict, const std::string& message = "",
                       const std::string& output = "") {
  TestResult test;
  test.name = name;
  test.verdict = verdict;
  test.time_ms = 1.5;
  test.message = message;
  test.output = output;
  return test;
}

// Everything a learner's code might print or a message might hold.
const std::string kNasty =
    "a&b <c> \"d\" 'e' \x01\x07\x1b[31m \xff\xfe bad utf-8 \xc3\x28 ok: \xc3\xa9 \xe2\x82\xac\r\n]]> --";

ProblemResult wrong_result() {
  ProblemResult result;
  result.problem = "top_p";
  result.solution = "workspace/top_p.hpp";
  result.verdict = Verdict::kWrongAnswer;
  result.tests = {test_result("example_1", Verdict::kAccepted),
                  test_result("nasty <case> & \"name\"", Verdict::kWrongAnswer, "max error " + kNasty, kNasty),
                  test_result("loops", Verdict::kTimeLimitExceeded, "no reply within 2000 ms")};
  return result;
}

// A wrong answer of problem "toy" on `tests`.
ProblemResult toy_result(std::vector<TestResult> tests) {
  ProblemResult result;
  result.problem = "toy";
  result.solution = "toy.hpp";
  result.verdict = Verdict::kWrongAnswer;
  result.tests = std::move(tests);
  return result;
}

ProblemResult compile_error_result() {
  ProblemResult result;
  result.problem = "temperature";
  result.solution = "workspace/temperature.hpp";
  result.verdict = Verdict::kCompileError;
  result.message = "workspace/temperature.hpp:8:40: error: no match for 'operator+' (std::vector<double> & double)";
  return result;
}

// ---- a small XML 1.0 well-formedness check ----

bool valid_xml_char(std::uint32_t c) {
  return c == 0x9 || c == 0xa || c == 0xd || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) ||
         (c >= 0x10000 && c <= 0x10ffff);
}

// Decodes UTF-8; false on an invalid sequence.
bool decode_utf8(const std::string& text, std::vector<std::uint32_t>* out) {
  for (std::size_t i = 0; i < text.size();) {
    unsigned char lead = static_cast<unsigned char>(text[i]);
    int length = lead < 0x80 ? 1 : (lead >> 5) == 6 ? 2 : (lead >> 4) == 14 ? 3 : (lead >> 3) == 30 ? 4 : 0;
    if (length == 0 || i + length > text.size()) return false;
    std::uint32_t code = length == 1 ? lead : lead & (0x7f >> length);
    for (int k = 1; k < length; ++k) {
      unsigned char next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xc0) != 0x80) return false;
      code = (code << 6) | (next & 0x3f);
    }
    out->push_back(code);
    i += length;
  }
  return true;
}

// Returns "" when `xml` is well-formed, else what is wrong. Also collects
// element names in document order.
std::string check_xml(const std::string& xml, std::vector<std::string>* elements = nullptr) {
  std::vector<std::uint32_t> chars;
  if (!decode_utf8(xml, &chars)) return "not UTF-8";
  for (std::uint32_t c : chars)
    if (!valid_xml_char(c)) return "a character XML 1.0 does not allow: " + std::to_string(c);
  std::size_t i = 0;
  auto starts = [&](const char* s) { return xml.compare(i, std::strlen(s), s) == 0; };
  auto name_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == ':' || c == '.';
  };
  auto check_reference = [&](std::size_t at, std::size_t* end) -> std::string {
    std::size_t semi = xml.find(';', at);
    if (semi == std::string::npos) return "unterminated reference";
    std::string ref = xml.substr(at + 1, semi - at - 1);
    *end = semi + 1;
    if (ref == "amp" || ref == "lt" || ref == "gt" || ref == "quot" || ref == "apos") return "";
    if (ref.size() > 1 && ref[0] == '#') {
      std::uint32_t code = ref[1] == 'x' ? std::stoul(ref.substr(2), nullptr, 16) : std::stoul(ref.substr(1));
      return valid_xml_char(code) ? "" : "a reference to a character XML does not allow: &" + ref + ";";
    }
    return "unknown entity &" + ref + ";";
  };
  if (starts("<?xml")) i = xml.find("?>") + 2;
  std::vector<std::string> open;
  int roots = 0;
  while (i < xml.size()) {
    if (xml[i] != '<') {
      if (open.empty() && !std::isspace(static_cast<unsigned char>(xml[i]))) return "text outside the root";
      if (xml[i] == '&') {
        std::size_t end;
        if (std::string error = check_reference(i, &end); !error.empty()) return error;
        i = end;
        continue;
      }
      if (xml[i] == '>' && i >= 2 && xml.compare(i - 2, 3, "]]>") == 0) return "]]> in text";
      ++i;
      continue;
    }
    if (starts("</")) {
      std::size_t end = xml.find('>', i);
      std::string name = xml.substr(i + 2, end - i - 2);
      if (open.empty() || open.back() != name) return "mismatched end tag </" + name + ">";
      open.pop_back();
      i = end + 1;
      continue;
    }
    ++i;
    std::size_t start = i;
    while (i < xml.size() && name_char(xml[i])) ++i;
    std::string name = xml.substr(start, i - start);
    if (name.empty()) return "a '<' that starts no tag";
    if (open.empty() && ++roots > 1) return "more than one root element";
    if (elements) elements->push_back(name);
    std::vector<std::string> attributes;
    for (;;) {
      while (i < xml.size() && std::isspace(static_cast<unsigned char>(xml[i]))) ++i;
      if (starts("/>")) {
        i += 2;
        break;
      }
      if (starts(">")) {
        open.push_back(name);
        ++i;
        break;
      }
      std::size_t attribute_start = i;
      while (i < xml.size() && name_char(xml[i])) ++i;
      std::string attribute = xml.substr(attribute_start, i - attribute_start);
      if (attribute.empty() || !starts("=\"")) return "malformed attribute in <" + name + ">";
      if (std::find(attributes.begin(), attributes.end(), attribute) != attributes.end())
        return "duplicate attribute " + attribute;
      attributes.push_back(attribute);
      i += 2;
      while (i < xml.size() && xml[i] != '"') {
        if (xml[i] == '<') return "'<' in the value of " + attribute;
        if (xml[i] == '&') {
          std::size_t end;
          if (std::string error = check_reference(i, &end); !error.empty()) return error;
          i = end;
        } else {
          ++i;
        }
      }
      if (i == xml.size()) return "unterminated attribute value";
      ++i;
    }
  }
  if (!open.empty()) return "unclosed <" + open.back() + ">";
  return roots == 1 ? "" : "no root element";
}

// xmllint, when installed, agrees (libxml2-utils is not a dependency).
void expect_xmllint_accepts(const std::string& xml) {
  if (!fs::exists("/usr/bin/xmllint")) return;
  fs::path file = fs::temp_directory_path() / ("judge-junit-" + std::to_string(getpid()) + ".xml");
  std::ofstream(file) << xml;
  int status = std::system(("/usr/bin/xmllint --noout " + file.string() + " 2>&1").c_str());
  fs::remove(file);
  EXPECT_EQ(status, 0) << "xmllint rejected:\n" << xml;
}

TEST(Junit, EscapesEverythingALearnerCanPrint) {
  std::string xml = render(make_junit_reporter, {wrong_result()});
  EXPECT_EQ(check_xml(xml), "") << xml;
  expect_xmllint_accepts(xml);
  EXPECT_NE(xml.find(R"(name="nasty &lt;case&gt; &amp; &quot;name&quot;")"), std::string::npos) << xml;
  EXPECT_NE(xml.find("a&amp;b &lt;c&gt; &quot;d&quot; &apos;e&apos; \\x01\\x07\\x1b[31m"), std::string::npos) << xml;
  EXPECT_NE(xml.find("\xef\xbf\xbd\xef\xbf\xbd bad utf-8 \xef\xbf\xbd( ok: \xc3\xa9 \xe2\x82\xac&#13;"),
            std::string::npos)
      << "invalid UTF-8 becomes U+FFFD, valid characters stay";
}

TEST(Junit, OneProblemIsATestsuiteWithACasePerTestAndFailuresTyped) {
  std::string xml = render(make_junit_reporter, {wrong_result()});
  std::vector<std::string> elements;
  ASSERT_EQ(check_xml(xml, &elements), "");
  EXPECT_EQ(elements.front(), "testsuite");
  EXPECT_EQ(std::count(elements.begin(), elements.end(), "testcase"), 3);
  EXPECT_EQ(std::count(elements.begin(), elements.end(), "failure"), 2);
  EXPECT_NE(xml.find(R"(<testsuite name="top_p" tests="3" failures="2" errors="0" skipped="0" time="0.004500">)"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find(R"(<testcase classname="top_p" name="example_1" time="0.001500"/>)"), std::string::npos) << xml;
  EXPECT_NE(xml.find(R"(<failure message="no reply within 2000 ms" type="time_limit_exceeded">)"), std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<system-out>a&amp;b"), std::string::npos) << "what the code printed goes to system-out";
}

TEST(Junit, CompileErrorIsOneFailingTestcase) {
  std::string xml = render(make_junit_reporter, {compile_error_result()});
  std::vector<std::string> elements;
  ASSERT_EQ(check_xml(xml, &elements), "") << xml;
  expect_xmllint_accepts(xml);
  EXPECT_EQ(std::count(elements.begin(), elements.end(), "testcase"), 1);
  EXPECT_NE(xml.find(R"(<testcase classname="temperature" name="compile" time="0">)"), std::string::npos) << xml;
  EXPECT_NE(
      xml.find(
          R"X(type="compile_error">workspace/temperature.hpp:8:40: error: no match for &apos;operator+&apos; (std::vector&lt;double&gt; &amp; double)</failure>)X"),
      std::string::npos)
      << xml;
}

TEST(Junit, SeveralProblemsHaveATestsuitesRoot) {
  std::string xml = render(make_junit_reporter, {wrong_result(), compile_error_result()});
  std::vector<std::string> elements;
  ASSERT_EQ(check_xml(xml, &elements), "") << xml;
  expect_xmllint_accepts(xml);
  EXPECT_EQ(elements.front(), "testsuites");
  EXPECT_EQ(std::count(elements.begin(), elements.end(), "testsuite"), 2);
  EXPECT_NE(xml.find(R"(<testsuites name="judge" tests="4" failures="3" errors="0")"), std::string::npos) << xml;
}

TEST(XmlCheck, RejectsWhatItShould) {
  EXPECT_NE(check_xml("<a><b></a></b>"), "");
  EXPECT_NE(check_xml("<a x=\"1\" x=\"2\"/>"), "");
  EXPECT_NE(check_xml("<a>&bogus;</a>"), "");
  EXPECT_NE(check_xml("<a>\x01</a>"), "");
  EXPECT_NE(check_xml("<a>&#1;</a>"), "");
  EXPECT_NE(check_xml("<a/><b/>"), "");
  EXPECT_EQ(check_xml("<?xml version=\"1.0\"?>\n<a x=\"&lt;&#10;\">t&amp;</a>\n"), "");
}

TEST(Exercism, VersionThreeWithStatusesMessagesAndCappedOutput) {
  ProblemResult result = wrong_result();
  result.tests[1].output = std::string(600, 'x') + "\xc3\xa9";
  nlohmann::json out = nlohmann::json::parse(render(make_exercism_reporter, {result}));
  EXPECT_EQ(out["version"], 3);
  EXPECT_EQ(out["status"], "fail");
  EXPECT_TRUE(out["message"].is_null());
  ASSERT_EQ(out["tests"].size(), 3u);
  EXPECT_EQ(out["tests"][0]["name"], "example_1");
  EXPECT_EQ(out["tests"][0]["status"], "pass");
  EXPECT_FALSE(out["tests"][0].contains("message"));
  EXPECT_EQ(out["tests"][1]["status"], "fail") << "a wrong answer fails";
  EXPECT_EQ(out["tests"][1]["output"], std::string(500, 'x') + "\n[Output was truncated. Please limit to 500 chars]");
  EXPECT_EQ(out["tests"][2]["status"], "error") << "a time limit is an error, not a failure";
  EXPECT_EQ(out["tests"][2]["message"], "no reply within 2000 ms");
}

TEST(Exercism, CompileErrorIsStatusErrorWithTheDiagnostics) {
  nlohmann::json out = nlohmann::json::parse(render(make_exercism_reporter, {compile_error_result()}));
  EXPECT_EQ(out, nlohmann::json::parse(R"J({"version": 3, "status": "error", "tests": [],
      "message": "workspace/temperature.hpp:8:40: error: no match for 'operator+' (std::vector<double> & double)"})J"));
}

TEST(Exercism, TestCodeShowsSampleCallsAndHidesHiddenInputs) {
  Problem problem;
  problem.slug = "top_p";
  TestCase sample;
  sample.name = "example_1";
  sample.op = "top_p_probs";
  sample.input = {{"logits", {1.0, 2.0}}, {"p", 0.5}};
  sample.expect = nlohmann::json{0.0, 1.0};
  TestCase hidden = sample;
  hidden.name = "loops";
  hidden.hidden = true;
  problem.samples = {sample};
  problem.hidden = {hidden};
  nlohmann::json out = nlohmann::json::parse(render(make_exercism_reporter, {wrong_result()}, &problem));
  EXPECT_EQ(out["tests"][0]["test_code"], "top_p_probs(logits = [1, 2], p = 0.5)  // expect [0, 1]");
  EXPECT_EQ(out["tests"][2]["test_code"], "top_p_probs(...)  // a hidden case: its inputs are not shown");
  EXPECT_FALSE(out["tests"][1].contains("test_code")) << "no case of that name in the problem";
}

TEST(Gradescope, OnePointPerCaseAndACompileErrorKeepsTheMaximum) {
  Problem problem;
  problem.slug = "temperature";
  TestCase one, two;
  one.name = "a";
  two.name = "b";
  two.hidden = true;
  problem.samples = {one};
  problem.hidden = {two};
  nlohmann::json out = nlohmann::json::parse(render(make_gradescope_reporter, {compile_error_result()}, &problem));
  ASSERT_EQ(out["tests"].size(), 2u);
  EXPECT_EQ(out["tests"][0]["name"], "temperature: a");
  EXPECT_EQ(out["tests"][0]["score"], 0);
  EXPECT_EQ(out["tests"][0]["max_score"], 1);
  EXPECT_EQ(out["tests"][0]["status"], "failed");
  EXPECT_NE(out["output"].get<std::string>().find("error: no match"), std::string::npos);

  out = nlohmann::json::parse(render(make_gradescope_reporter, {wrong_result()}));
  ASSERT_EQ(out["tests"].size(), 3u);
  EXPECT_EQ(out["tests"][0]["score"], 1);
  EXPECT_EQ(out["tests"][0]["status"], "passed");
  EXPECT_EQ(out["tests"][2]["output"], "time_limit_exceeded: no reply within 2000 ms");
}

// Students see the samples at once and the hidden cases when the course
// says (after_published unless told otherwise), compile error or not.
TEST(Gradescope, HiddenCasesGetTheChosenVisibility) {
  Problem problem;
  problem.slug = "top_p";
  TestCase sample, hidden;
  sample.name = "example_1";
  hidden.name = "nasty <case> & \"name\"";
  hidden.hidden = true;
  problem.samples = {sample};
  problem.hidden = {hidden};
  ProblemResult result = wrong_result();
  result.tests.resize(2);
  result.tests[1].hidden = true;
  auto visibilities = [&](std::unique_ptr<Reporter> (*make)(std::FILE*), const ProblemResult& judged) {
    nlohmann::json out = nlohmann::json::parse(render(make, {judged}, &problem));
    std::vector<std::string> seen;
    for (const auto& test : out["tests"]) seen.push_back(test["visibility"]);
    return seen;
  };
  EXPECT_EQ(visibilities(make_gradescope_reporter, result), (std::vector<std::string>{"visible", "after_published"}));
  EXPECT_EQ(visibilities(make_gradescope_reporter, compile_error_result()),
            (std::vector<std::string>{"visible", "after_published"}));
  auto hidden_until_due = [](std::FILE* out) { return make_gradescope_reporter(out, "after_due_date"); };
  EXPECT_EQ(visibilities(+hidden_until_due, result), (std::vector<std::string>{"visible", "after_due_date"}));
}

TEST(CapCharacters, CountsCharactersNotBytes) {
  EXPECT_EQ(cap_characters("\xc3\xa9\xc3\xa9\xc3\xa9", 2, "!"), "\xc3\xa9\xc3\xa9!");
  EXPECT_EQ(cap_characters("abc", 3, "!"), "abc");
}

}  // namespace
}  // namespace judge

namespace judge {
namespace {
std::unique_ptr<Reporter> make_plain_text_reporter(std::FILE* out) { return make_text_reporter(out, false); }

// Hints are found once every case is judged: each format shows them, with
// the cases they explain.
TEST(PlainText, AShrunkExampleShowsEveryNumberOfItsInputWrapped) {
  ProblemResult result = toy_result({test_result("first", Verdict::kWrongAnswer, "wrong")});
  ShrunkExample example;
  example.from_case = "first";
  example.shrunk = true;
  example.sizes = "vocabulary 5 -> 3";
  example.input = nlohmann::json::parse(R"({"beam_width": 2, "model": {"kind": "table",
      "default": [0.25, 0.5, 0.25],
      "rows": [{"context": [], "probs": [0.125, 0.75, 0.125]},
               {"context": [1], "probs": [0.0625, 0.875, 0.0625]},
               {"context": [1, 1], "probs": [0.375, 0.25, 0.375]}]}})");
  example.message = "wrong";
  result.shrunk = {example};
  std::string text = render(make_plain_text_reporter, {result});
  // The case's own input is fitted to a line; the shrunk one is whole.
  for (const char* number : {"0.0625", "0.875", "0.375", "[1, 1]"})
    EXPECT_NE(text.find(number), std::string::npos) << number << " in:\n" << text;
  EXPECT_EQ(text.find("in all"), std::string::npos) << text;
}

TEST(Hints, EveryFormatShowsEachHint) {
  ProblemResult result =
      toy_result({test_result("first", Verdict::kWrongAnswer, "index 0: expected 1, got 2"),
                  test_result("second", Verdict::kAccepted), test_result("third", Verdict::kWrongAnswer, "wrong")});
  result.tests[0].hint = "drops the crossing token";
  result.tests[2].hint = "forgets to renormalize";
  result.hints = {{"drops the crossing token", {"first"}}, {"forgets to renormalize", {"third"}}};
  for (auto make : {make_plain_text_reporter, make_json_reporter, make_junit_reporter, make_exercism_reporter,
                    make_gradescope_reporter}) {
    std::string text = render(make, {result});
    EXPECT_NE(text.find("drops the crossing token"), std::string::npos) << text;
    EXPECT_NE(text.find("forgets to renormalize"), std::string::npos) << text;
  }
  std::string text = render(make_plain_text_reporter, {result});
  EXPECT_NE(text.find("hint (a known mistake, as in case first):\n    drops the crossing token"), std::string::npos)
      << text;
  EXPECT_LT(text.find("third"), text.find("hint (a known mistake, as in case first)"))
      << "hints follow the cases: " << text;
  nlohmann::json json = nlohmann::json::parse(render(make_json_reporter, {result}));
  ASSERT_EQ(json["hints"].size(), 2u) << json;
  EXPECT_EQ(json["hints"][1]["cases"], nlohmann::json::array({"third"}));
  EXPECT_EQ(json["tests"][2]["hint"], "forgets to renormalize");
}

// A search for known mistakes that could not make every comparison says so
// and why, in the terminal and in JSON; a complete one says nothing.
TEST(Hints, ASearchCutShortSaysWhyInTextAndJson) {
  ProblemResult result = toy_result({test_result("first", Verdict::kWrongAnswer, "wrong")});
  const std::string plain = render(make_plain_text_reporter, {result});
  EXPECT_EQ(plain.find("cut short"), std::string::npos) << plain;
  EXPECT_FALSE(nlohmann::json::parse(render(make_json_reporter, {result})).contains("hints_cut_short"));

  result.hints_cut_short = "the known mistake wrong/x.hpp did not build";
  const std::string text = render(make_plain_text_reporter, {result});
  EXPECT_NE(text.find("hints cut short: the search among the known mistakes did not finish"), std::string::npos)
      << text;
  EXPECT_NE(text.find("wrong/x.hpp did not build"), std::string::npos) << text;
  nlohmann::json json = nlohmann::json::parse(render(make_json_reporter, {result}));
  EXPECT_EQ(json["hints_cut_short"], "the known mistake wrong/x.hpp did not build") << json;
}

// The text report of a problem whose quick preview judged `previewed`
// before the -O2 runner judged `result`.
std::string render_with_preview(const std::vector<TestResult>& previewed, const ProblemResult& result) {
  return render(make_plain_text_reporter, {result}, nullptr, previewed);
}

bool shows_previews(std::unique_ptr<Reporter> (*make)(std::FILE*)) {
  std::FILE* out = std::tmpfile();
  bool shows = make(out)->shows_previews();
  std::fclose(out);
  return shows;
}

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

TEST(PlainText, APreviewedCaseIsPrintedOnceWhenTheO2RunnerAgrees) {
  ProblemResult result = wrong_result();
  std::vector<TestResult> previewed = {result.tests[0], result.tests[1]};
  previewed[1].message = "max error, worded by the quick build";  // the verdict decides, not the words
  std::string text = render_with_preview(previewed, result);
  EXPECT_EQ(occurrences(text, "example_1"), 1u) << text;
  EXPECT_EQ(occurrences(text, "nasty"), 1u) << text;
  EXPECT_EQ(occurrences(text, "loops"), 1u) << "a case the preview did not reach is printed as usual: " << text;
  EXPECT_LT(text.find("example_1"), text.find("loops")) << text;
  EXPECT_EQ(text.find("quick build's run"), std::string::npos) << text;
  EXPECT_NE(text.find("top_p: wrong_answer (1 of 3 cases passed)"), std::string::npos) << text;
  // Every format other than text shows no preview: the -O2 results alone.
  for (auto make : {make_json_reporter, make_junit_reporter, make_exercism_reporter, make_gradescope_reporter})
    EXPECT_FALSE(shows_previews(make));
  EXPECT_TRUE(shows_previews(make_plain_text_reporter));
}

TEST(PlainText, APreviewTheO2RunnerContradictsIsCorrectedWithANote) {
  ProblemResult result;
  result.problem = "toy";
  result.solution = "toy.hpp";
  result.verdict = Verdict::kAccepted;
  result.tests = {test_result("first", Verdict::kAccepted), test_result("second", Verdict::kAccepted)};
  std::vector<TestResult> previewed = {test_result("first", Verdict::kWrongAnswer, "index 0: expected 1, got 2")};
  std::string text = render_with_preview(previewed, result);
  std::size_t fail = text.find("FAIL  sample first");
  std::size_t pass = text.find("pass  sample first");
  ASSERT_NE(fail, std::string::npos) << text;
  ASSERT_NE(pass, std::string::npos) << text;
  EXPECT_LT(fail, pass) << text;
  std::size_t note = text.find("note: the quick build's run of this case, above, gave wrong_answer");
  ASSERT_NE(note, std::string::npos) << text;
  EXPECT_GT(note, pass) << text;
  EXPECT_NE(text.find("undefined behaviour"), std::string::npos) << text;
  EXPECT_NE(text.find("--sanitize"), std::string::npos) << text;
  EXPECT_EQ(occurrences(text, "second"), 1u) << text;
  EXPECT_NE(text.find("toy: accepted (2 of 2 cases passed)"), std::string::npos) << text;
}

// A sample's statistical failure finishes first, a hidden fixed answer's
// after it: the fixed answer, which says plainly what is wrong, is printed
// first; the statistical one after every other case.
TEST(PlainText, AFixedAnswersFailureLeadsAStatisticalOne) {
  ProblemResult result;
  result.problem = "toy";
  result.solution = "toy.hpp";
  result.verdict = Verdict::kWrongAnswer;
  TestResult laws = test_result("laws_by_frequency", Verdict::kWrongAnswer, "2 of 3 drafts accepted came up 0.57");
  laws.failure_kind = "distribution";
  laws.input = nlohmann::json{{"drafts", 3}};
  TestResult fixed = test_result("fixed_draws", Verdict::kWrongAnswer, "expected [1,0,2,1], got [1,0,2]");
  fixed.hidden = true;
  fixed.failure_kind = "value";
  fixed.input = nlohmann::json{{"drafts", 4}};
  result.tests = {laws, test_result("passes", Verdict::kAccepted), fixed};
  std::string text = render(make_plain_text_reporter, {result});
  std::size_t fixed_at = text.find("FAIL  hidden fixed_draws"), laws_at = text.find("FAIL  sample laws_by_frequency");
  ASSERT_NE(fixed_at, std::string::npos) << text;
  ASSERT_NE(laws_at, std::string::npos) << text;
  EXPECT_LT(fixed_at, laws_at) << text;
  EXPECT_LT(text.find("pass  sample passes"), laws_at) << "held until every case is known: " << text;
  EXPECT_LT(laws_at, text.find("toy: wrong_answer")) << text;
  EXPECT_EQ(occurrences(text, "laws_by_frequency"), 1u) << text;
}
}  // namespace
}  // namespace judge
