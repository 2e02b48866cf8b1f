// The practice loop as a learner meets it, through the CLI, on a problem of
// the tests' own (tests/fixtures/draws): a failing case shows its note and
// input; identical failures are counted, not repeated; output keeps within
// the terminal's width while the JSON has everything.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "run_judge.hpp"
#include "scratch_root.hpp"
#include "util/text.hpp"

namespace judge {
namespace {
namespace fs = std::filesystem;
using testing::JudgeRun;
using testing::run_judge;

// The draws fixture with one more hidden case: a generated input holding -inf.
struct Scratch {
  explicit Scratch(const std::string& name) : root(testing::scratch_root("draws", "practice_" + name)) {
    std::ofstream(root / "problems/draws/hidden/generated.yaml") << R"(cases:
  - name: generated_logits
    note: Five thousand generated logits, the first of them -inf.
    op: softmax_probs
    input:
      logits: {generate: uniform, n: 5000, seed: 7, low: -2.0, high: 2.0, set: {0: -.inf}}
)";
    env = {"JUDGE_ROOT=" + root.string(), "JUDGE_CACHE_DIR=" + (root / "cache").string(),
           "JUDGE_WORKSPACE=" + (root / "workspace").string()};
  }
  JudgeRun judge(std::vector<std::string> args, std::vector<std::string> more_env = {}) const {
    std::vector<std::string> all = env;
    all.insert(all.end(), more_env.begin(), more_env.end());
    return run_judge(args, all);
  }
  std::string wrong() const { return (root / "solutions/draws/wrong/probs_unnormalized.hpp").string(); }
  std::string stub() const { return (root / "problems/draws/stub.hpp").string(); }

  fs::path root;
  std::vector<std::string> env;
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

TEST(PracticeLoop, AFailingHiddenCaseShowsItsNoteInputExpectedAndGot) {
  Scratch scratch("hidden_input");
  JudgeRun run = scratch.judge({"run", "draws", "--solution", scratch.wrong()});
  EXPECT_EQ(run.status, 1) << run.err;
  std::size_t at = run.out.find("FAIL  hidden three_logits");
  ASSERT_NE(at, std::string::npos) << run.out;
  std::string after = run.out.substr(at);
  EXPECT_NE(after.find("case:     Softmax of three logits."), std::string::npos) << run.out;
  EXPECT_NE(after.find("input:    logits: [1, 0, -1]"), std::string::npos) << run.out;
  EXPECT_NE(after.find("expected: [0.6652409558, 0.2447284711, 0.09003057317]"), std::string::npos) << run.out;
  EXPECT_NE(after.find("got:      [2.718281828, 1, 0.3678794412]"), std::string::npos) << run.out;
}

TEST(PracticeLoop, AGeneratedInputIsShownAsItsGeneratorAndJsonCarriesIt) {
  Scratch scratch("generated_input");
  JudgeRun text = scratch.judge({"run", "draws", "--solution", scratch.wrong()});
  std::size_t at = text.out.find("FAIL  hidden generated_logits");
  ASSERT_NE(at, std::string::npos) << text.out;
  std::string after = text.out.substr(at, 1000);
  EXPECT_NE(after.find("input:    logits: 5000 values from uniform(low -2, high 2, seed 7), [0] = -inf"),
            std::string::npos)
      << after;

  JudgeRun json = scratch.judge({"run", "draws", "--solution", scratch.wrong(), "--format", "json"});
  nlohmann::json result = nlohmann::json::parse(json.out);
  nlohmann::json generated, passed;
  for (const auto& test : result["tests"]) {
    if (test["name"] == "generated_logits") generated = test;
    if (test["verdict"] == "accepted") passed = test;
  }
  ASSERT_TRUE(generated.is_object()) << json.out.substr(0, 2000);
  EXPECT_EQ(generated["note"], "Five thousand generated logits, the first of them -inf.");
  EXPECT_EQ(generated["input"]["logits"]["generate"], "uniform") << generated;
  EXPECT_EQ(generated["input"]["logits"]["n"], 5000) << generated;
  EXPECT_EQ(generated["input"]["logits"]["set"][0][1], "-inf") << "JSON has no infinities: " << generated;
  EXPECT_NE(generated["details"].get<std::string>().find("expected: "), std::string::npos) << generated;
  ASSERT_TRUE(passed.is_object());
  EXPECT_FALSE(passed.contains("input")) << "a passed case carries no input: " << passed;
  // The result cache answers the same again, input included.
  JudgeRun cached = scratch.judge({"run", "draws", "--solution", scratch.wrong(), "--format", "json"});
  EXPECT_EQ(nlohmann::json::parse(cached.out)["tests"], result["tests"]);
}

TEST(PracticeLoop, TheUntouchedStubFailsInAFewLines) {
  Scratch scratch("stub");
  JudgeRun run = scratch.judge({"run", "draws", "--solution", scratch.stub()});
  EXPECT_EQ(run.status, 1) << run.err;
  EXPECT_LE(lines_of(run.out).size(), 12u) << run.out;
  EXPECT_EQ(count_of(run.out, "uncaught exception std::logic_error: not implemented yet"), 2u)
      << "once in full, once counted: " << run.out;
  EXPECT_NE(run.out.find("FAIL  4 more cases: uncaught exception std::logic_error: not implemented yet"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("draws: runtime_error (0 of 5 cases passed)"), std::string::npos) << run.out;
  // The JSON has every case whole.
  JudgeRun json = scratch.judge({"run", "draws", "--solution", scratch.stub(), "--format", "json"});
  nlohmann::json result = nlohmann::json::parse(json.out);
  ASSERT_EQ(result["tests"].size(), 5u);
  for (const auto& test : result["tests"]) EXPECT_EQ(test["message"], "uncaught exception std::logic_error: not implemented yet");
}

TEST(PracticeLoop, TextKeepsWithinTheWidthAndSaysTheToleranceOnce) {
  Scratch scratch("width");
  for (int width : {60, 100}) {
    JudgeRun run = scratch.judge({"run", "draws", "--solution", scratch.wrong()}, {"COLUMNS=" + std::to_string(width)});
    EXPECT_EQ(run.status, 1) << run.err;
    for (const std::string& line : lines_of(run.out))
      EXPECT_LE(character_count(line), static_cast<std::size_t>(width)) << "COLUMNS=" << width << ": " << line;
    EXPECT_EQ(count_of(run.out, "(numbers match within atol 1e-09 or rtol 1e-06)"), 1u) << run.out;
    EXPECT_EQ(count_of(run.out, "rtol"), 1u) << run.out;
  }
  JudgeRun json = scratch.judge({"run", "draws", "--solution", scratch.wrong(), "--format", "json"}, {"COLUMNS=60"});
  nlohmann::json result = nlohmann::json::parse(json.out);
  EXPECT_EQ(result["tolerance"], (nlohmann::json{{"atol", 1e-9}, {"rtol", 1e-6}}));
  std::size_t longest = 0;
  for (const auto& test : result["tests"]) longest = std::max(longest, test["message"].get<std::string>().size());
  EXPECT_GT(longest, 60u) << "the JSON has the messages whole";
}

}  // namespace
}  // namespace judge
