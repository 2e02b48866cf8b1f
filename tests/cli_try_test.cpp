// `judge try` through the judge binary, on the fixture package `draws`
// (tests/fixtures/draws: softmax_probs, and the sampler softmax_sample) in a
// scratch root, with the solutions of tests/fixtures/try: exit statuses
// 0/1/2, the text and JSON forms, and one-line errors naming the key.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "fixture_files.hpp"
#include "run_judge.hpp"
#include "scratch_root.hpp"

namespace judge {
namespace {
namespace fs = std::filesystem;

using testing::JudgeRun;

const fs::path& scratch_root() {
  static const testing::ScratchRoot root("draws", "cli_try_");
  return root.dir();
}

// `path` as the judge names it in messages: relative to its working
// directory, the source tree.
std::string shown_path(const fs::path& path) { return fs::proximate(path, JUDGE_SOURCE_DIR).string(); }

JudgeRun try_judge(std::vector<std::string> args) {
  const fs::path& root = scratch_root();
  args.insert(args.begin(), {"try", "draws"});
  return testing::run_judge(args, {"JUDGE_ROOT=" + root.string(), "JUDGE_CACHE_DIR=" + (root / "cache").string(),
                                   "JUDGE_WORKSPACE=" + (root / "workspace").string()});
}

// A solution of tests/fixtures/try, its includes of neighbours inlined.
std::string solution(const std::string& name) { return testing::fixture_file("try/" + name); }

std::string wrong_probs() { return (scratch_root() / "solutions/draws/wrong/probs_unnormalized.hpp").string(); }

// The frequencies of a text tally's row "  token T  expected  yours  reference".
struct Row {
  double expected = -1, yours = -1, reference = -1;
};
Row row_of(const std::string& out, int token) {
  std::smatch match;
  std::regex pattern("\\n  token " + std::to_string(token) + " +([0-9.]+) +([0-9.]+) +([0-9.]+)\\n");
  if (!std::regex_search(out, match, pattern)) return {};
  return {std::stod(match[1]), std::stod(match[2]), std::stod(match[3])};
}

TEST(CliTry, AValueOpThatAgreesExitsZeroWithBothOutputs) {
  JudgeRun run = try_judge({"--reference", "--input", "{logits: [1, 0]}"});
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out,
            "input:      {logits: [1, 0]}\n"
            "yours:      [0.7310585786, 0.2689414214]\n"
            "reference:  [0.7310585786, 0.2689414214]\n"
            "difference: none within the tolerance (atol 1e-09 or rtol 1e-06; integers exactly)\n");
}

TEST(CliTry, AWrongAnswerExitsOneAndShowsTheDifference) {
  JudgeRun run = try_judge({"--solution", wrong_probs(), "--input", "{logits: [1, 0]}"});
  EXPECT_EQ(run.status, 1) << run.err;
  EXPECT_NE(run.out.find("yours:      [2.718281828, 1]\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("difference: index 0: expected 0.7310585786, got 2.718281828 (error 1.98722325); 2 of 2 "
                         "entries wrong; tolerance atol 1e-09 or rtol 1e-06\n"),
            std::string::npos)
      << run.out;
}

TEST(CliTry, ASamplerShowsItsFrequenciesBesideTheExpectedProbabilities) {
  JudgeRun run =
      try_judge({"--reference", "--op", "softmax_sample", "--input", "{logits: [1, 0, -1]}", "--draws", "4000"});
  EXPECT_EQ(run.status, 0) << run.err << run.out;
  EXPECT_NE(run.out.find("draws:      4000 seeds"), std::string::npos) << run.out;
  // softmax([1, 0, -1]) = [0.6652, 0.2447, 0.0900], most probable first.
  Row rows[3] = {row_of(run.out, 0), row_of(run.out, 1), row_of(run.out, 2)};
  const double expected[3] = {0.6652, 0.2447, 0.0900};
  for (int t = 0; t < 3; ++t) {
    EXPECT_DOUBLE_EQ(rows[t].expected, expected[t]) << "token " << t << "\n" << run.out;
    EXPECT_NEAR(rows[t].yours, expected[t], 0.04) << "token " << t << "\n" << run.out;
    EXPECT_DOUBLE_EQ(rows[t].yours, rows[t].reference) << "the reference is tried as yours, on the same seeds";
  }
  EXPECT_LT(run.out.find("\n  token 0 "), run.out.find("\n  token 1 ")) << run.out;
  EXPECT_LT(run.out.find("\n  token 1 "), run.out.find("\n  token 2 ")) << run.out;
  EXPECT_NE(run.out.find("  fit: chi-square "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("same seed:  the same answer when asked again\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("difference: none: over 4000 seeds your draws fit the expected probabilities"),
            std::string::npos)
      << run.out;
}

TEST(CliTry, AWrongSamplerExitsOneAndSaysWhy) {
  JudgeRun uniform = try_judge({"--solution", solution("uniform_sampler.hpp"), "--op", "softmax_sample", "--input",
                                "{logits: [1, 0, -1]}", "--draws", "4000"});
  EXPECT_EQ(uniform.status, 1) << uniform.err << uniform.out;
  EXPECT_NEAR(row_of(uniform.out, 2).yours, 1.0 / 3, 0.04) << uniform.out;
  EXPECT_NE(uniform.out.find("difference: token: your frequencies do not fit the expected probabilities (chi-square "),
            std::string::npos)
      << uniform.out;

  JudgeRun unseeded = try_judge({"--solution", solution("ignores_seed.hpp"), "--op", "softmax_sample", "--input",
                                 "{logits: [1, 0, -1]}", "--draws", "1000"});
  EXPECT_EQ(unseeded.status, 1) << unseeded.err << unseeded.out;
  EXPECT_TRUE(std::regex_search(unseeded.out, std::regex("\ndifference: not deterministic in its seed: seed [0-9]+ "
                                                         "gave [0-2] the first time and [0-2] when asked again\n")))
      << unseeded.out;
}

struct BadInput {
  const char* protects;
  std::vector<std::string> args;
  std::string stderr_line;
};

TEST(CliTry, ABadInputExitsTwoWithOneLineNamingTheKey) {
  const BadInput cases[] = {
      {"an unknown key",
       {"--input", "{logits: [1, 0], temperature: 2}"},
       "judge: --input:1:18: unknown key 'temperature' (op softmax_probs takes logits: doubles)\n"},
      {"a misspelt key",
       {"--input", "{logit: [1, 0]}"},
       "judge: --input:1:2: unknown key 'logit' (did you mean 'logits'? op softmax_probs takes logits: doubles)\n"},
      {"a missing key",
       {"--input", "{}"},
       "judge: --input: missing key 'logits' (op softmax_probs takes logits: doubles)\n"},
      {"a wrong type",
       {"--input", "{logits: [1, abc]}"},
       "judge: --input:1:14: key 'logits': expected a number (.inf, -.inf and .nan allowed), got 'abc'\n"},
      {"a list where a list of numbers goes",
       {"--input", "{logits: 3}"},
       "judge: --input:1:10: key 'logits': expected a list of numbers or a generator\n"},
      {"bad YAML",
       {"--input", "{logits: [1, 0}"},
       "judge: --input:1:15: YAML syntax error: this ']' or '}' does not match the bracket it closes\n"
       "  1 | {logits: [1, 0}\n"
       "    |               ^\n"},
      {"not a mapping",
       {"--input", "[1, 0]"},
       "judge: --input:1:1: expected a mapping of the op's inputs (op softmax_probs takes logits: doubles)\n"},
      {"seeds, which the judge supplies",
       {"--op", "softmax_sample", "--input", "{logits: [1, 0], seeds: [1, 2]}"},
       "judge: --input:1:18: key 'seeds': the judge supplies it (softmax_sample is judged as a sampler, over --draws "
       "N seeds of its own); leave it out\n"},
      {"an unknown op",
       {"--op", "softmax_prob", "--input", "{logits: [1, 0]}"},
       "judge: --op: draws has no op 'softmax_prob' (did you mean 'softmax_probs'?); the ops you can try: "
       "softmax_probs, softmax_sample\n"},
      {"--input without a value given",
       {"--op", "softmax_probs"},
       "judge: try: missing --input (op softmax_probs takes logits: doubles)\n"},
      {"no workspace file",
       {"--input", "{logits: [1, 0]}"},
       "judge: " + shown_path(scratch_root() / "workspace/draws.hpp") +
           ": no solution yet; run `judge start draws` first (or pass --solution FILE)\n"},
      {"both --reference and --solution",
       {"--reference", "--solution", "x.hpp", "--input", "{logits: [1, 0]}"},
       "judge: --solution excludes --reference (see judge --help)\n"},
  };
  for (const BadInput& c : cases) {
    JudgeRun run = try_judge(c.args);
    EXPECT_EQ(run.status, 2) << c.protects << ": " << run.err << run.out;
    EXPECT_EQ(run.out, "") << c.protects;
    EXPECT_EQ(run.err, c.stderr_line) << c.protects;
  }
}

TEST(CliTry, TheInputMayBeAFileOfYaml) {
  fs::path file = scratch_root() / "input.yaml";
  std::ofstream(file) << "# two logits\nlogits:\n  - 1\n  - 0\n";
  JudgeRun run = try_judge({"--reference", "--input", file.string()});
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("reference:  [0.7310585786, 0.2689414214]\n"), std::string::npos) << run.out;

  fs::path bad = scratch_root() / "bad_input.yaml";
  std::ofstream(bad) << "logits:\n  - 1\n  - zero\n";
  JudgeRun error = try_judge({"--reference", "--input", bad.string()});
  EXPECT_EQ(error.status, 2);
  EXPECT_EQ(error.err, "judge: " + shown_path(bad) +
                           ":3:5: key 'logits': expected a number (.inf, -.inf and .nan allowed), got 'zero'\n");
}

TEST(CliTry, JsonIsOneObjectWithBothSidesAndTheDifference) {
  JudgeRun value = try_judge({"--solution", wrong_probs(), "--input", "{logits: [1, -.inf]}", "--format", "json"});
  EXPECT_EQ(value.status, 1) << value.err;
  EXPECT_EQ(std::count(value.out.begin(), value.out.end(), '\n'), 1) << value.out;
  nlohmann::json result = nlohmann::json::parse(value.out);
  EXPECT_EQ(result["problem"], "draws");
  EXPECT_EQ(result["op"], "softmax_probs");
  EXPECT_EQ(result["mode"], "value");
  EXPECT_EQ(result["input"], nlohmann::json::parse(R"({"logits": [1.0, "-inf"]})"));
  EXPECT_EQ(result["yours"]["value"], nlohmann::json::parse("[2.718281828459045, 0.0]"));
  EXPECT_EQ(result["reference"]["value"], nlohmann::json::parse("[1.0, 0.0]"));
  EXPECT_EQ(result["agree"], false);
  EXPECT_EQ(result["difference"].get<std::string>().rfind("index 0: expected 1, got 2.718281828", 0), 0u)
      << result.dump();

  JudgeRun sampler = try_judge(
      {"--reference", "--op", "softmax_sample", "--input", "{logits: [0, 0]}", "--draws", "1000", "--format", "json"});
  EXPECT_EQ(sampler.status, 0) << sampler.err;
  result = nlohmann::json::parse(sampler.out);
  EXPECT_EQ(result["mode"], "sampler");
  EXPECT_EQ(result["draws"], 1000);
  EXPECT_EQ(result["agree"], true);
  EXPECT_EQ(result["deterministic"], true);
  ASSERT_EQ(result["tallies"].size(), 1u) << result.dump();
  const nlohmann::json& tally = result["tallies"][0];
  ASSERT_EQ(tally["rows"].size(), 2u) << tally.dump();
  std::int64_t drawn = 0;
  for (const nlohmann::json& row : tally["rows"]) {
    EXPECT_EQ(row["expected"], 0.5) << row.dump();
    EXPECT_EQ(row["yours"], row["reference"]) << row.dump();
    drawn += row["yours"].get<std::int64_t>();
  }
  EXPECT_EQ(drawn, 1000);
  EXPECT_TRUE(tally["p_value"].is_number()) << tally.dump();
  EXPECT_EQ(result["seeds"].size(), 5u);
}

TEST(CliTry, ACrashIsReportedAsACrashWithTheLine) {
  const std::regex crash(
      "\nyours:      runtime_error: the runner was killed by SIGSEGV \\(Segmentation fault\\) before replying at "
      "[^\n]*crashes\\.hpp:1[0-2]\n");
  JudgeRun value = try_judge({"--solution", solution("crashes.hpp"), "--input", "{logits: [1, 0]}"});
  EXPECT_EQ(value.status, 1) << value.err;
  EXPECT_TRUE(std::regex_search(value.out, crash)) << value.out;
  EXPECT_NE(value.out.find("reference:  [0.7310585786, 0.2689414214]\n"), std::string::npos) << value.out;
  EXPECT_NE(value.out.find("difference: yours ended in runtime_error, the reference returned a value\n"),
            std::string::npos)
      << value.out;

  JudgeRun sampler = try_judge({"--solution", solution("crashes.hpp"), "--op", "softmax_sample", "--input",
                                "{logits: [1, 0]}", "--draws", "200"});
  EXPECT_EQ(sampler.status, 1) << sampler.err;
  EXPECT_TRUE(std::regex_search(sampler.out, crash)) << sampler.out;
  EXPECT_NE(sampler.out.find("difference: yours ended in runtime_error\n"), std::string::npos) << sampler.out;
}

TEST(CliTry, WithoutInputItListsTheOpsWithASampleToStartFrom) {
  JudgeRun run = try_judge({});
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out,
            "ops of draws to try (--op NAME; the first is the default):\n"
            "  softmax_probs: logits: doubles (one call)\n"
            "    judge try draws --op softmax_probs --input '{logits: [0, 0]}'\n"
            "  softmax_sample: logits: doubles (a sampler: drawn over --draws N seeds of the judge's)\n"
            "    judge try draws --op softmax_sample --input '{logits: [1, 0]}'\n");
}

}  // namespace
}  // namespace judge
