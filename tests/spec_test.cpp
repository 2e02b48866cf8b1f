// Loading problem.yaml and case files: what a valid problem becomes, and the
// full `file:line:column: message` of every mistake an author can make.
#include "package/problem.hpp"
#include "package/solutions_index.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "check/checker.hpp"
#include "check/registry.hpp"
#include "package/typed_values.hpp"
#include "package/yaml_reader.hpp"
#include "util/text.hpp"

namespace judge {
namespace {
namespace fs = std::filesystem;

// Lines are numbered in the comments: error positions below refer to them.
const std::string kMinimal =
    "title: Demo\n"                                                                 // 1
    "order: 3\n"                                                                    // 2
    "statement: Say hi.\n"                                                          // 3
    "signature: std::vector<double> f(double x, const std::vector<double>& xs);\n"  // 4
    "ops:\n"                                                                        // 5
    "  f:\n"                                                                        // 6
    "    inputs: {x: number, xs: doubles}\n"                                        // 7
    "    output: doubles\n"                                                         // 8
    "  g:\n"                                                                        // 9
    "    inputs: {m: matrix}\n"                                                     // 10
    "    output: any\n"                                                             // 11
    "limits: {time_ms: 500, memory_mb: 256}\n"                                      // 12
    "tolerance: {atol: 1.0e-6, rtol: 0.0}\n"                                        // 13
    "samples:\n"                                                                    // 14
    "  - name: first\n"                                                             // 15
    "    input: {x: 1.0, xs: [1, 2]}\n"                                             // 16
    "    expect: [0.5, 0.5]\n";                                                     // 17

// `text` with `from` (which must occur exactly once) replaced by `to`.
std::string with(std::string text, const std::string& from, const std::string& to) {
  std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "'" << from << "' not in the text";
  if (at == std::string::npos) return text;
  EXPECT_EQ(text.find(from, at + 1), std::string::npos) << "'" << from << "' occurs twice";
  return text.replace(at, from.size(), to);
}

// Each test gets a fresh directory holding problems/demo and runs inside it,
// so messages name "demo/problem.yaml" as display_path shows it.
// The package of problem `demo`, in the test's working directory.
Package demo_package() { return package_of(Paths{}, "demo"); }

class SpecTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/judge-spec-test-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    root_ = pattern;
    previous_ = fs::current_path();
    fs::create_directories(root_ / "demo");
    fs::current_path(root_);
  }
  void TearDown() override {
    fs::current_path(previous_);
    fs::remove_all(root_);
  }

  void write(const std::string& relative, const std::string& text) {
    fs::path path = root_ / relative;
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
  }

  // The SpecError message of loading problem `demo` with `problem_yaml`.
  std::string load_error(const std::string& problem_yaml) {
    write("demo/problem.yaml", problem_yaml);
    try {
      load_problem(demo_package(), checker_case_rules());
    } catch (const SpecError& error) {
      return error.message;
    }
    return "(loaded without an error)";
  }

  fs::path root_;
  fs::path previous_;
};

TEST_F(SpecTest, MinimalProblemLoadsWithItsDefaults) {
  write("demo/problem.yaml", kMinimal);
  write("demo/hidden/b.yaml", "cases:\n  - name: from_b\n    input: {x: 2.0, xs: [3]}\n");
  write("demo/hidden/a.yaml",
        "cases:\n"
        "  - name: from_a\n"
        "    note: what it tests\n"
        "    op: g\n"
        "    input: {m: [[1, 2], [3, 4]]}\n"
        "    tolerance: {rtol: 0.5}\n"
        "    time_ms: 7\n"
        "  - name: rejects\n"
        "    input: {x: -1.0, xs: []}\n"
        "    throws: invalid_argument\n");
  write("demo/hidden/notes.txt", "not a case file");
  Problem problem = load_problem(demo_package(), checker_case_rules());

  EXPECT_EQ(problem.slug, "demo");
  EXPECT_EQ(problem.title, "Demo");
  EXPECT_EQ(problem.order, 3);
  EXPECT_EQ(problem.statement, "Say hi.");
  EXPECT_EQ(problem.package.problem_dir, "demo");
  EXPECT_EQ(problem.package.spec_file, "demo/problem.yaml");
  ASSERT_EQ(problem.ops.size(), 2u);
  EXPECT_EQ(problem.ops[0].name, "f");
  ASSERT_EQ(problem.ops[0].inputs.size(), 2u);
  EXPECT_EQ(problem.ops[0].inputs[0], std::make_pair(std::string("x"), ValueType::kNumber));
  EXPECT_EQ(problem.ops[0].inputs[1], std::make_pair(std::string("xs"), ValueType::kDoubles));
  EXPECT_EQ(problem.ops[0].output, ValueType::kDoubles);
  EXPECT_EQ(problem.ops[1].name, "g");
  EXPECT_EQ(problem.ops[1].output, ValueType::kAny);
  EXPECT_EQ(problem.time_ms, 500);
  EXPECT_EQ(problem.memory_mb, 256);
  EXPECT_EQ(problem.tolerance.atol, 1e-6);
  EXPECT_EQ(problem.tolerance.rtol, 0.0);

  ASSERT_EQ(problem.samples.size(), 1u);
  const TestCase& sample = problem.samples[0];
  EXPECT_EQ(sample.name, "first");
  EXPECT_FALSE(sample.hidden);
  EXPECT_EQ(sample.op, "f") << "the first op is the default";
  EXPECT_EQ(sample.check, "values");
  EXPECT_EQ(sample.note, "");
  EXPECT_EQ(sample.input, nlohmann::json::parse(R"({"x": 1.0, "xs": [1.0, 2.0]})"));
  EXPECT_TRUE(sample.input["xs"][0].is_number_float()) << "doubles are doubles even when written as 1";
  ASSERT_TRUE(sample.expect.has_value());
  EXPECT_EQ(*sample.expect, nlohmann::json::parse("[0.5, 0.5]"));
  EXPECT_FALSE(sample.expects_invalid_argument);
  EXPECT_EQ(sample.time_ms, 500) << "the problem's limit is the default";
  EXPECT_EQ(sample.tolerance.atol, 1e-6);
  EXPECT_EQ(sample.place.file, "demo/problem.yaml");
  EXPECT_EQ(sample.place.line, 15);
  EXPECT_EQ(sample.place.column, 5);

  // hidden/*.yaml in file-name order: a.yaml before b.yaml; notes.txt ignored.
  ASSERT_EQ(problem.hidden.size(), 3u);
  EXPECT_EQ(problem.hidden[0].name, "from_a");
  EXPECT_EQ(problem.hidden[1].name, "rejects");
  EXPECT_EQ(problem.hidden[2].name, "from_b");
  const TestCase& from_a = problem.hidden[0];
  EXPECT_TRUE(from_a.hidden);
  EXPECT_EQ(from_a.note, "what it tests");
  EXPECT_EQ(from_a.op, "g");
  EXPECT_EQ(from_a.input["m"], nlohmann::json::parse("[[1.0, 2.0], [3.0, 4.0]]"));
  EXPECT_FALSE(from_a.expect.has_value()) << "no expect: the reference computes it";
  EXPECT_EQ(from_a.tolerance.atol, 1e-6) << "a case's tolerance overrides only what it names";
  EXPECT_EQ(from_a.tolerance.rtol, 0.5);
  EXPECT_EQ(from_a.time_ms, 7);
  EXPECT_TRUE(problem.hidden[1].expects_invalid_argument);
  EXPECT_EQ(problem.hidden[1].input["xs"], nlohmann::json::array());

  std::vector<const TestCase*> order = problem.cases();
  ASSERT_EQ(order.size(), 4u);
  EXPECT_EQ(order[0]->name, "first") << "samples come first";
  EXPECT_EQ(order[3]->name, "from_b");
}

TEST_F(SpecTest, ShrinkAxesAreLoadedWithTheirPaths) {
  write("demo/problem.yaml", with(kMinimal, "    output: any\n",
                                  "    output: any\n"
                                  "    shrink:\n"
                                  "      - axis: vocabulary\n"
                                  "        size: m\n"
                                  "        entries: [\"m[]\"]\n"
                                  "        ids: [m]\n"
                                  "        distributions: true\n"));
  Problem problem = load_problem(demo_package(), checker_case_rules());
  const Operation* g = problem.find_op("g");
  ASSERT_EQ(g->axes.size(), 1u);
  EXPECT_EQ(g->axes[0].name, "vocabulary");
  EXPECT_EQ(g->axes[0].size, "m");
  EXPECT_EQ(g->axes[0].entries, std::vector<std::string>{"m[]"});
  EXPECT_EQ(g->axes[0].ids, std::vector<std::string>{"m"});
  EXPECT_TRUE(g->axes[0].distributions);
  EXPECT_TRUE(problem.find_op("f")->axes.empty());
}

TEST_F(SpecTest, HeadAxesAndFixedAnswersAreLoaded) {
  std::string yaml = with(kMinimal, "    output: any\n",
                          "    output: any\n"
                          "    shrink:\n"
                          "      - axis: lanes\n"
                          "        heads: m\n"
                          "        groups: m\n"
                          "        width: m\n"
                          "        per_head: [m]\n"
                          "        same_as_heads: [m]\n"
                          "    fixed_answer: f\n");
  // f takes g's inputs: it is g's fixed-answer op.
  yaml = with(yaml, "    inputs: {x: number, xs: doubles}\n", "    inputs: {m: matrix}\n");
  yaml = with(yaml, "input: {x: 1.0, xs: [1, 2]}", "input: {m: [[1]]}");
  write("demo/problem.yaml", yaml);
  Problem problem = load_problem(demo_package(), checker_case_rules());
  const Operation* g = problem.find_op("g");
  EXPECT_TRUE(g->axes.empty());
  ASSERT_EQ(g->head_axes.size(), 1u);
  EXPECT_EQ(g->head_axes[0].name, "lanes");
  EXPECT_EQ(g->head_axes[0].heads, "m");
  EXPECT_EQ(g->head_axes[0].per_head, std::vector<std::string>{"m"});
  EXPECT_TRUE(g->head_axes[0].per_group.empty());
  EXPECT_EQ(g->head_axes[0].same_as_heads, std::vector<std::string>{"m"});
  EXPECT_EQ(g->fixed_answer, "f");
  EXPECT_EQ(problem.find_op("f")->fixed_answer, "");
}

TEST_F(SpecTest, ExplicitHiddenListIsLoadedInItsOwnOrder) {
  write("demo/problem.yaml", kMinimal + "hidden: [cases/z.yaml, cases/y.yaml]\n");
  write("demo/cases/y.yaml", "cases:\n  - name: from_y\n    input: {x: 2.0, xs: [3]}\n");
  write("demo/cases/z.yaml", "cases:\n  - name: from_z\n    input: {x: 2.0, xs: [3]}\n");
  write("demo/hidden/ignored.yaml", "this file is not listed: {");
  Problem problem = load_problem(demo_package(), checker_case_rules());
  ASSERT_EQ(problem.hidden.size(), 2u);
  EXPECT_EQ(problem.hidden[0].name, "from_z");
  EXPECT_EQ(problem.hidden[1].name, "from_y");
}

TEST_F(SpecTest, ProblemsAreListedInCourseOrder) {
  write("problems/late/problem.yaml", with(kMinimal, "order: 3", "order: 2"));
  write("problems/early/problem.yaml", with(kMinimal, "order: 3", "order: 1"));
  write("problems/also_early/problem.yaml", with(kMinimal, "order: 3", "order: 1"));
  write("problems/not_a_problem/readme.txt", "no problem.yaml here");
  Paths paths;
  paths.problems_dir = "problems";
  std::vector<Problem> problems = load_all_problems(paths, checker_case_rules());
  ASSERT_EQ(problems.size(), 3u);
  EXPECT_EQ(problems[0].slug, "also_early");
  EXPECT_EQ(problems[1].slug, "early");
  EXPECT_EQ(problems[2].slug, "late");
}

TEST_F(SpecTest, NumbersAcceptYamlInfinityAndNanSpellings) {
  write("demo/problem.yaml",
        with(kMinimal, "input: {x: 1.0, xs: [1, 2]}", "input: {x: -.inf, xs: [.inf, -.inf, .nan, +.inf, .Inf, -3e2]}"));
  Problem problem = load_problem(demo_package(), checker_case_rules());
  const nlohmann::json& input = problem.samples[0].input;
  EXPECT_EQ(input["x"].get<double>(), -INFINITY);
  const nlohmann::json& xs = input["xs"];
  ASSERT_EQ(xs.size(), 6u);
  EXPECT_EQ(xs[0].get<double>(), INFINITY);
  EXPECT_EQ(xs[1].get<double>(), -INFINITY);
  EXPECT_TRUE(std::isnan(xs[2].get<double>()));
  EXPECT_EQ(xs[3].get<double>(), INFINITY);
  EXPECT_EQ(xs[4].get<double>(), INFINITY);
  EXPECT_EQ(xs[5].get<double>(), -300.0);
}

TEST_F(SpecTest, UntypedScalarsAreWhatTheySpell) {
  write("demo/problem.yaml", kMinimal);
  write("demo/hidden/any.yaml",
        "cases:\n"
        "  - name: any\n"
        "    op: g\n"
        "    input: {m: [[1]]}\n"
        "    expect: {int: -7, real: 2.5, exp: 1e3, inf: -.inf, nan: .nan, word: abc, quoted: \"12\",\n"
        "             flag: true, big: 99999999999999999999, list: [1, 0.5, x]}\n");
  Problem problem = load_problem(demo_package(), checker_case_rules());
  ASSERT_EQ(problem.hidden.size(), 1u);
  const nlohmann::json& got = *problem.hidden[0].expect;
  EXPECT_TRUE(got["int"].is_number_integer());
  EXPECT_EQ(got["int"].get<std::int64_t>(), -7);
  EXPECT_TRUE(got["real"].is_number_float());
  EXPECT_EQ(got["real"].get<double>(), 2.5);
  EXPECT_TRUE(got["exp"].is_number_float());
  EXPECT_EQ(got["exp"].get<double>(), 1000.0);
  EXPECT_EQ(got["inf"].get<double>(), -INFINITY);
  EXPECT_TRUE(std::isnan(got["nan"].get<double>()));
  EXPECT_EQ(got["word"], "abc");
  EXPECT_EQ(got["quoted"], "12");
  EXPECT_EQ(got["flag"], true);
  // Past int64: a number, not a wrapped integer.
  EXPECT_TRUE(got["big"].is_number_float());
  EXPECT_EQ(got["list"], nlohmann::json::parse("[1, 0.5, \"x\"]"));
}

TEST_F(SpecTest, GeneratorsExpandDeterministically) {
  write("demo/problem.yaml",
        with(kMinimal, "input: {x: 1.0, xs: [1, 2]}",
             "input: {x: 1.0, xs: {generate: arange, n: 4, start: 1.5, step: -0.5, set: {2: -.inf}}}"));
  Problem problem = load_problem(demo_package(), checker_case_rules());
  EXPECT_TRUE(is_generated(problem.samples[0].input["xs"])) << "kept as a description until a case runs";
  EXPECT_EQ(materialize_input(problem.samples[0].input)["xs"], nlohmann::json({1.5, 1.0, -INFINITY, 0.0}));

  write("demo/problem.yaml", with(kMinimal, "input: {x: 1.0, xs: [1, 2]}",
                                  "input: {x: 1.0, xs: {generate: uniform, n: 1000, seed: 7, low: -8, high: 8}}"));
  const nlohmann::json first =
      materialize_input(load_problem(demo_package(), checker_case_rules()).samples[0].input)["xs"];
  ASSERT_EQ(first.size(), 1000u);
  for (const auto& v : first) {
    EXPECT_GE(v.get<double>(), -8.0);
    EXPECT_LT(v.get<double>(), 8.0);
  }
  EXPECT_EQ(materialize_input(load_problem(demo_package(), checker_case_rules()).samples[0].input)["xs"], first)
      << "the same seed gives the same values";
}

TEST(SplitMix64, IsTheReferenceStream) {
  // The published splitmix64 outputs for seed 0: generated inputs are the
  // same on every machine and compiler.
  SplitMix64 stream(0);
  EXPECT_EQ(stream.next(), 0xe220a8397b1dcdafull);
  EXPECT_EQ(stream.next(), 0x6e789e6aa1b965f4ull);
  EXPECT_EQ(stream.next(), 0x06c45d188009454full);
}

struct ErrorCase {
  const char* protects;
  std::string problem_yaml;
  std::string message;
};

std::vector<ErrorCase> error_cases() {
  const std::string input_line = "input: {x: 1.0, xs: [1, 2]}";
  return {
      {"a YAML syntax error names the place and shows the line", with(kMinimal, "title: Demo", "title: [Demo"),
       "demo/problem.yaml:2:6: YAML syntax error: a list opened with '[' is not closed with ']' before this point\n"
       "  2 | order: 3\n"
       "    |      ^"},
      {"a tab in the indentation is named, with a caret under it",
       with(kMinimal, "    output: any\n", "\toutput: any\n"),
       "demo/problem.yaml:11:1: YAML syntax error: a tab character indents this line; YAML indents with spaces only\n"
       "  11 | \\toutput: any\n"
       "     | ^"},
      {"a tab after spaces", with(kMinimal, "    input: {x: 1.0", "  \tinput: {x: 1.0"),
       "demo/problem.yaml:16:3: YAML syntax error: a tab character indents this line; YAML indents with spaces only\n"
       "  16 |   \\tinput: {x: 1.0, xs: [1, 2]}\n"
       "     |   ^"},
      {"a case's key out of line with its siblings", with(kMinimal, "    expect: [0.5, 0.5]", "   expect: [0.5, 0.5]"),
       "demo/problem.yaml:17:4: YAML syntax error: this line's indentation lines up with nothing above it: start "
       "it in the column of the keys (or '- ' items) it belongs with\n"
       "  17 |    expect: [0.5, 0.5]\n"
       "     |    ^"},
      {"an op out of line with its siblings", with(kMinimal, "  g:\n", "   g:\n"),
       "demo/problem.yaml:9:4: YAML syntax error: this line's indentation lines up with nothing above it: start "
       "it in the column of the keys (or '- ' items) it belongs with\n"
       "  9 |    g:\n"
       "    |    ^"},
      {"a key indented under a plain value",
       with(kMinimal, "order: 3\nstatement: Say hi.\n", "order: 3\n  statement: Say hi.\n"),
       "demo/problem.yaml:3:12: YAML syntax error: a ':' that cannot start a value here: a key indented deeper than "
       "the keys beside it, a key under a plain value, or a value holding ': ' that needs quotes\n"
       "  3 |   statement: Say hi.\n"
       "    |            ^"},
      {"an unknown key close to a known one suggests it", with(kMinimal, "tolerance: {", "tolerence: {"),
       "demo/problem.yaml:13:1: unknown key 'tolerence' in problem (did you mean 'tolerance'?)"},
      {"an unknown key far from every known one lists them",
       with(kMinimal, "memory_mb: 256}", "memory_mb: 256, banana: 1}"),
       "demo/problem.yaml:12:40: unknown key 'banana' in limits; expected one of: time_ms, memory_mb"},
      {"a missing key",
       with(kMinimal, "signature: std::vector<double> f(double x, const std::vector<double>& xs);\n", ""),
       "demo/problem.yaml:1:1: missing key 'signature' in problem"},
      {"a missing limit names the mapping",
       with(kMinimal, "limits: {time_ms: 500, memory_mb: 256}", "limits: {time_ms: 500}"),
       "demo/problem.yaml:12:9: missing key 'memory_mb' in limits"},
      {"a string where an integer is expected", with(kMinimal, "order: 3", "order: first"),
       "demo/problem.yaml:2:8: key 'order': expected an integer, got 'first'"},
      {"a fraction where an integer is expected", with(kMinimal, "time_ms: 500", "time_ms: 500.5"),
       "demo/problem.yaml:12:19: key 'time_ms': expected an integer, got '500.5'"},
      {"a list where a number is expected", with(kMinimal, "atol: 1.0e-6", "atol: [1]"),
       "demo/problem.yaml:13:19: key 'atol': expected a number, got a list"},
      {"a negative tolerance", with(kMinimal, "rtol: 0.0", "rtol: -1.0e-6"),
       "demo/problem.yaml:13:33: key 'rtol': expected a number >= 0"},
      {"a list where a string is expected", with(kMinimal, "title: Demo", "title: [a, b]"),
       "demo/problem.yaml:1:8: key 'title': expected a string, got a list"},
      {"an unknown value type in ops", with(kMinimal, "inputs: {m: matrix}", "inputs: {m: vector}"),
       "demo/problem.yaml:10:17: key 'm': unknown type 'vector'; expected one of: number, integer, seed, doubles, "
       "ints, seeds, matrix, bool, string, any"},
      {"a misspelt value type suggests the nearest", with(kMinimal, "inputs: {m: matrix}", "inputs: {m: doubels}"),
       "demo/problem.yaml:10:17: key 'm': unknown type 'doubels' (did you mean 'doubles'?)"},
      {"a shrink axis naming no input of its op",
       with(kMinimal, "    output: any\n", "    output: any\n    shrink:\n      - {axis: rows, entries: [n]}\n"),
       "demo/problem.yaml:13:32: key 'entries': op 'g' has no input 'n'"},
      {"a shrink axis path that is not a path",
       with(kMinimal, "    output: any\n", "    output: any\n    shrink:\n      - {axis: rows, entries: [\"m[0]\"]}\n"),
       "demo/problem.yaml:13:32: key 'entries': 'm[0]' is not a path like model.rows[].probs"},
      {"a shrink axis with no entries",
       with(kMinimal, "    output: any\n", "    output: any\n    shrink:\n      - {axis: rows, ids: [m]}\n"),
       "demo/problem.yaml:13:9: axis 'rows': key 'entries' needs at least one path"},
      {"a head axis without its width",
       with(kMinimal, "    output: any\n",
            "    output: any\n    shrink:\n      - {axis: lanes, heads: m, groups: m, per_head: [m]}\n"),
       "demo/problem.yaml:13:9: missing key 'width' in shrink axis"},
      {"a head axis with no per_head",
       with(kMinimal, "    output: any\n",
            "    output: any\n    shrink:\n      - {axis: lanes, heads: m, groups: m, width: m}\n"),
       "demo/problem.yaml:13:9: axis 'lanes': key 'per_head' needs at least one path"},
      {"a head axis naming no input of its op",
       with(kMinimal, "    output: any\n",
            "    output: any\n    shrink:\n      - {axis: lanes, heads: n, groups: m, width: m, per_head: [m]}\n"),
       "demo/problem.yaml:13:30: key 'heads': op 'g' has no input 'n'"},
      {"a fixed answer naming no op", with(kMinimal, "    output: any\n", "    output: any\n    fixed_answer: h\n"),
       "demo/problem.yaml:12:19: key 'fixed_answer': 'h' names no other op of this problem"},
      {"a fixed answer naming its own op",
       with(kMinimal, "    output: any\n", "    output: any\n    fixed_answer: g\n"),
       "demo/problem.yaml:12:19: key 'fixed_answer': 'g' names no other op of this problem"},
      {"a fixed answer op taking an input its op has not",
       with(kMinimal, "    output: any\n", "    output: any\n    fixed_answer: f\n"),
       "demo/problem.yaml:12:19: key 'fixed_answer': op 'f' takes input 'x', which op 'g' has not"},
      {"shrink as a mapping", with(kMinimal, "    output: any\n", "    output: any\n    shrink: {axis: rows}\n"),
       "demo/problem.yaml:12:13: key 'shrink': expected a list of axes {axis, entries, ids, ...}"},
      {"an op without an output", with(kMinimal, "    output: any\n", ""),
       "demo/problem.yaml:10:5: missing key 'output' in op 'g'"},
      {"a case input missing an argument", with(kMinimal, input_line, "input: {x: 1.0}"),
       "demo/problem.yaml:16:12: missing key 'xs' in the input of case 'first'"},
      {"a case input with an extra argument", with(kMinimal, input_line, "input: {x: 1.0, xs: [1, 2], temperature: 2}"),
       "demo/problem.yaml:16:33: unknown key 'temperature' in the input of case 'first'; expected one of: x, xs"},
      {"a misspelt case input argument", with(kMinimal, input_line, "input: {x: 1.0, xss: [1, 2]}"),
       "demo/problem.yaml:16:21: unknown key 'xss' in the input of case 'first' (did you mean 'xs'?)"},
      {"a case without a name", with(kMinimal, "  - name: first\n    input", "  - input"),
       "demo/problem.yaml:15:5: missing key 'name' in case"},
      {"a bad case name", with(kMinimal, "name: first", "name: First-Case"),
       "demo/problem.yaml:15:11: key 'name': expected lowercase letters, digits and '_', got 'First-Case'"},
      {"an unknown key in a case", with(kMinimal, "    expect:", "    expected:"),
       "demo/problem.yaml:17:5: unknown key 'expected' in case (did you mean 'expect'?)"},
      {"a case naming no op", with(kMinimal, "  - name: first\n", "  - name: first\n    op: gg\n"),
       "demo/problem.yaml:16:9: key 'op': case 'first' names no op of this problem (did you mean 'g'?)"},
      {"a case naming an op far from every op",
       with(kMinimal, "  - name: first\n", "  - name: first\n    op: softmax\n"),
       "demo/problem.yaml:16:9: key 'op': case 'first' names no op of this problem"},
      {"throws other than invalid_argument", with(kMinimal, "    expect: [0.5, 0.5]\n", "    throws: out_of_range\n"),
       "demo/problem.yaml:17:13: key 'throws': expected invalid_argument, got 'out_of_range'"},
      {"both expect and throws", kMinimal + "    throws: invalid_argument\n",
       "demo/problem.yaml:17:13: case 'first' has both 'expect' and 'throws'"},
      {"an expectation of the wrong type", with(kMinimal, "expect: [0.5, 0.5]", "expect: 0.5"),
       "demo/problem.yaml:17:13: key 'expect': expected a list of numbers or a generator"},
      {"an unknown check name", kMinimal + "    check: nonsense\n",
       "demo/problem.yaml:18:12: key 'check': unknown check 'nonsense'; expected one of: " +
           fmt::format("{}", fmt::join(checker_names(), ", "))},
      {"a misspelt check name suggests the nearest", kMinimal + "    check: distribtion\n",
       "demo/problem.yaml:18:12: key 'check': unknown check 'distribtion' (did you mean 'distribution'?)"},
      {"check_args the values check does not take", kMinimal + "    check_args: {seeds: 5}\n",
       "demo/problem.yaml:15:5: case 'first': check 'values' takes only check_args.expect_op, not 'seeds'"},
      {"a case time limit out of range", kMinimal + "    time_ms: 0\n",
       "demo/problem.yaml:18:14: key 'time_ms': expected 1 to 600000"},
      {"a bad generator kind", with(kMinimal, input_line, "input: {x: 1.0, xs: {generate: gaussian, n: 3, seed: 1}}"),
       "demo/problem.yaml:16:36: key 'generate': unknown generator 'gaussian'; expected one of: uniform, normal, "
       "constant, arange"},
      {"a misspelt generator kind",
       with(kMinimal, input_line, "input: {x: 1.0, xs: {generate: unifrom, n: 3, seed: 1}}"),
       "demo/problem.yaml:16:36: key 'generate': unknown generator 'unifrom' (did you mean 'uniform'?)"},
      {"a generator key of another kind",
       with(kMinimal, input_line, "input: {x: 1.0, xs: {generate: constant, n: 3, value: 1, seed: 1}}"),
       "demo/problem.yaml:16:62: key 'seed' does not apply to generator 'constant'"},
      {"a generator index out of range",
       with(kMinimal, input_line, "input: {x: 1.0, xs: {generate: constant, n: 3, value: 0.5, set: {3: 1.0}}}"),
       "demo/problem.yaml:16:70: key 'set': index 3 outside [0, 3)"},
      {"a generator too large",
       with(kMinimal, input_line, "input: {x: 1.0, xs: {generate: constant, n: 99999999, value: 0}}"),
       "demo/problem.yaml:16:49: key 'n': expected 0 to 16777216, got 99999999"},
      {"a ragged matrix",
       with(kMinimal, "  - name: first\n    " + input_line,
            "  - name: first\n    op: g\n    input: {m: [[1, 2], [3]]}"),
       "demo/problem.yaml:17:25: key 'm': row 1 has 1 entries, row 0 has 2"},
      {"a matrix row that is not a list",
       with(kMinimal, "  - name: first\n    " + input_line, "  - name: first\n    op: g\n    input: {m: [[1, 2], 3]}"),
       "demo/problem.yaml:17:25: key 'm': row 1 is not a list of numbers"},
      {"'inf' is not YAML's spelling of infinity", with(kMinimal, input_line, "input: {x: 1.0, xs: [inf]}"),
       "demo/problem.yaml:16:26: key 'xs': expected a number (.inf, -.inf and .nan allowed), got 'inf'"},
      {"'nan' is not YAML's spelling of NaN", with(kMinimal, input_line, "input: {x: nan, xs: [1]}"),
       "demo/problem.yaml:16:16: key 'x': expected a number (.inf, -.inf and .nan allowed), got 'nan'"},
      {"a number that overflows a double is not silently infinite",
       with(kMinimal, input_line, "input: {x: 1e999, xs: [1]}"),
       "demo/problem.yaml:16:16: key 'x': expected a number (.inf, -.inf and .nan allowed), got '1e999'"},
      {"a hex float is not a YAML number", with(kMinimal, input_line, "input: {x: 0x1p3, xs: [1]}"),
       "demo/problem.yaml:16:16: key 'x': expected a number (.inf, -.inf and .nan allowed), got '0x1p3'"},
      {"a margin op that returns no number", kMinimal + "margin: {op: g, min: 1.0e-9, applies_to: [f]}\n",
       "demo/problem.yaml:18:14: key 'op': margin op 'g' must output number (a distance, or .inf for no boundary)"},
      {"a margin of zero, which measures nothing",
       with(kMinimal, "inputs: {m: matrix}\n    output: any", "inputs: {x: number}\n    output: number") +
           "margin: {op: g, min: 0, applies_to: [f]}\n",
       "demo/problem.yaml:18:22: key 'min': expected a finite number > 0 (an absolute distance)"},
      {"a margin op taking an input the measured op lacks",
       with(kMinimal, "inputs: {m: matrix}\n    output: any", "inputs: {y: number}\n    output: number") +
           "margin: {op: g, min: 1.0e-9, applies_to: [f]}\n",
       "demo/problem.yaml:18:43: key 'applies_to': op 'f' has no input 'y', which margin op 'g' takes"},
      {"a key given twice is an error, not silently its first", kMinimal + "tolerance: {atol: 1.0}\n",
       "demo/problem.yaml:18:1: duplicate key 'tolerance' (first at line 13); a key may appear once in a mapping"},
      {"a key given twice in a flow mapping", with(kMinimal, "memory_mb: 256}", "memory_mb: 256, time_ms: 9}"),
       "demo/problem.yaml:12:40: duplicate key 'time_ms' (first at line 12); a key may appear once in a mapping"},
      {"an argument given twice in a case input", with(kMinimal, input_line, "input: {x: 1.0, xs: [1, 2], x: 2.0}"),
       "demo/problem.yaml:16:33: duplicate key 'x' (first at line 16); a key may appear once in a mapping"},
      {"a listed hidden file that does not exist", kMinimal + "hidden: [nope.yaml]\n",
       "demo/problem.yaml:18:10: key 'hidden': no such file 'nope.yaml'"},
  };
}

TEST_F(SpecTest, EveryAuthorMistakeHasItsFullMessage) {
  for (const ErrorCase& c : error_cases()) EXPECT_EQ(load_error(c.problem_yaml), c.message) << c.protects;
}

TEST_F(SpecTest, DuplicateCaseNamesAcrossSamplesAndHiddenNameTheSecond) {
  write("demo/hidden/a.yaml",
        "cases:\n  - name: other\n    input: {x: 2.0, xs: [3]}\n"
        "  - name: first\n    input: {x: 2.0, xs: [3]}\n");
  EXPECT_EQ(load_error(kMinimal), "demo/hidden/a.yaml:4:5: duplicate case name 'first'");
}

TEST_F(SpecTest, CaseFileErrorsNameTheCaseFile) {
  write("demo/hidden/a.yaml", "- name: other\n");
  EXPECT_EQ(load_error(kMinimal), "demo/hidden/a.yaml:1:1: case file: expected a mapping, got a list");
  write("demo/hidden/a.yaml", "cases:\n  - name: other\n    input: {x: 2.0, xs: [3]}\n    tolerance: {atol: x}\n");
  EXPECT_EQ(load_error(kMinimal),
            "demo/hidden/a.yaml:4:23: key 'atol': expected a number (.inf, -.inf and .nan allowed), got 'x'");
  write("demo/hidden/a.yaml", "cases:\n  - name: other\n    input: {x: 2.0, xs: [3]}\n    input: {x: 1.0, xs: [3]}\n");
  EXPECT_EQ(load_error(kMinimal),
            "demo/hidden/a.yaml:4:5: duplicate key 'input' (first at line 3); a key may appear once in a mapping");
  write("demo/hidden/a.yaml", "cases: {name: other}\n");
  EXPECT_EQ(load_error(kMinimal), "demo/hidden/a.yaml:1:8: expected a list of cases");
}

TEST_F(SpecTest, MissingProblemFileIsNamed) {
  try {
    load_problem(demo_package(), checker_case_rules());
    FAIL() << "loaded a problem without problem.yaml";
  } catch (const SpecError& error) {
    EXPECT_EQ(error.message, "demo/problem.yaml: cannot read the file");
  }
}

TEST(DisplayPath, IsRelativeInsideTheCurrentDirectoryAndAbsoluteOutside) {
  fs::path here = fs::current_path();
  EXPECT_EQ(display_path((here / "a" / "b.yaml").string()), "a/b.yaml");
  EXPECT_EQ(display_path("a/./b.yaml"), "a/b.yaml");
  EXPECT_EQ(display_path("/definitely/elsewhere/x.yaml"), "/definitely/elsewhere/x.yaml");
}

}  // namespace
}  // namespace judge

namespace judge {
namespace {
// solutions.yaml: `slowdown` on an accepted solution, `hint_tests` with the
// known mistakes they must be hinted, and what a mistake in either says.
class SolutionsIndexTest : public SpecTest {
 protected:
  Package package() {
    Package package;
    package.solutions_dir = (root_ / "solutions/demo").string();
    package.solutions_index = (root_ / "solutions/demo/solutions.yaml").string();
    for (const char* file : {"reference.hpp", "accepted/slow.hpp", "wrong/a.hpp", "wrong/b.hpp", "hint_tests/ab.hpp"})
      write(std::string("solutions/demo/") + file, "// a solution\n");
    return package;
  }
  std::string index_error(const std::string& yaml) {
    Package demo = package();
    write("solutions/demo/solutions.yaml", yaml);
    try {
      load_solutions_index(demo);
    } catch (const SpecError& error) {
      return error.message;
    }
    return "(loaded without an error)";
  }
  const std::string kIndex =
      "reference: reference.hpp\n"                                    // 1
      "accepted:\n"                                                   // 2
      "  - {file: accepted/slow.hpp, note: slow, slowdown: 12}\n"     // 3
      "wrong:\n"                                                      // 4
      "  - {file: wrong/a.hpp, verdict: wrong_answer, mistake: A}\n"  // 5
      "  - {file: wrong/b.hpp, verdict: wrong_answer, mistake: B}\n"  // 6
      "hint_tests:\n"                                                 // 7
      "  - file: hint_tests/ab.hpp\n"                                 // 8
      "    verdict: wrong_answer\n"                                   // 9
      "    hints: [wrong/a.hpp, wrong/b.hpp]\n";                      // 10
};

TEST_F(SolutionsIndexTest, ReadsSlowdownsAndHintTests) {
  Package demo = package();
  write("solutions/demo/solutions.yaml", kIndex);
  std::optional<SolutionsIndex> index = load_solutions_index(demo);
  ASSERT_TRUE(index);
  ASSERT_EQ(index->accepted.size(), 1u);
  EXPECT_EQ(index->accepted[0].slowdown, 12);
  ASSERT_EQ(index->hint_tests.size(), 1u);
  EXPECT_EQ(index->hint_tests[0].verdict, Verdict::kWrongAnswer);
  ASSERT_EQ(index->hint_tests[0].hints.size(), 2u);
  EXPECT_EQ(index->hint_tests[0].hints[1], index->wrong[1].file);
}

TEST_F(SolutionsIndexTest, NamesTheFileLineAndKeyOfEachMistake) {
  EXPECT_EQ(index_error(with(kIndex, "slowdown: 12", "slowdown: 1")),
            "solutions/demo/solutions.yaml:3:53: key 'slowdown': expected a number above 1");
  EXPECT_EQ(index_error(with(kIndex, "hints: [wrong/a.hpp, wrong/b.hpp]", "hints: [accepted/slow.hpp]")),
            "solutions/demo/solutions.yaml:10:13: key 'hints': 'accepted/slow.hpp' is not one of the wrong solutions "
            "listed above");
  EXPECT_EQ(index_error(with(kIndex, "hints: [wrong/a.hpp, wrong/b.hpp]", "hints: [wrong/c.hpp]")),
            "solutions/demo/solutions.yaml:10:13: key 'hints': no such file 'wrong/c.hpp'");
  EXPECT_EQ(index_error(with(kIndex, "    hints: [wrong/a.hpp, wrong/b.hpp]\n", "")),
            "solutions/demo/solutions.yaml:8:5: missing key 'hints' in a hint test");
}
}  // namespace
}  // namespace judge
