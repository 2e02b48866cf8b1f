// The practice loop as a learner meets it, through the CLI, on a problem of
// the tests' own (tests/fixtures/draws): a failing case shows its note and
// input; identical failures are counted, not repeated; output keeps within
// the terminal's width while the JSON has everything.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "run_judge.hpp"
#include "scratch_root.hpp"
#include "skip_here.hpp"
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

TEST(PracticeLoop, EachFailureIsShownOnceWhateverTheQuickPreviewShowedFirst) {
  // The text report shows the -Og preview's results while the -O2 runner
  // compiles, and then the -O2 runner's where they differ: a failure both
  // see is one FAIL line, however far the preview got.
  Scratch scratch("preview_once");
  JudgeRun run = scratch.judge({"run", "draws", "--solution", scratch.wrong(), "--no-shrink"});
  EXPECT_EQ(run.status, 1) << run.err;
  EXPECT_EQ(count_of(run.out, "FAIL  hidden three_logits"), 1u) << run.out;
  EXPECT_EQ(count_of(run.out, "example_flat"), 1u) << run.out;
  EXPECT_EQ(run.out.find("quick build's run"), std::string::npos) << run.out;
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
  for (const auto& test : result["tests"])
    EXPECT_EQ(test["message"], "uncaught exception std::logic_error: not implemented yet");
  // Each of the four counted is named, whole, in the text.
  for (std::size_t i = 1; i < result["tests"].size(); ++i) {
    std::string name = result["tests"][i]["name"];
    EXPECT_EQ(count_of(run.out, name), 1u) << name << " in:\n" << run.out;
  }
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

std::string reference_text(const Scratch& scratch) {
  std::ifstream in(scratch.root / "solutions/draws/reference.hpp");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_workspace_file(const Scratch& scratch, const std::string& from) {
  fs::copy_file(from, scratch.root / "workspace/draws.hpp", fs::copy_options::overwrite_existing);
}

TEST(PracticeLoop, AttemptsAreRecordedAndTheStatusFollowsThem) {
  Scratch scratch("attempts");
  auto status = [&] {
    nlohmann::json list = nlohmann::json::parse(scratch.judge({"list", "--format", "json"}).out);
    return list["problems"][0];
  };
  EXPECT_EQ(status()["status"], "not started");
  ASSERT_EQ(scratch.judge({"start", "draws"}).status, 0);
  EXPECT_EQ(status()["status"], "started") << "started, not yet attempted";
  EXPECT_EQ(status()["attempts"], 0);

  write_workspace_file(scratch, scratch.wrong());
  EXPECT_EQ(scratch.judge({"run", "draws"}).status, 1);
  EXPECT_EQ(status()["status"], "attempted");
  scratch.judge({"run", "draws", "--no-cache"});
  EXPECT_EQ(status()["attempts"], 1) << "the same file judged again is no new attempt";
  write_workspace_file(scratch, (scratch.root / "solutions/draws/reference.hpp").string());
  EXPECT_EQ(scratch.judge({"run", "draws"}).status, 0);
  write_workspace_file(scratch, scratch.stub());
  EXPECT_EQ(scratch.judge({"run", "draws"}).status, 1);
  nlohmann::json now = status();
  EXPECT_EQ(now["status"], "solved") << "solved once stays solved";
  EXPECT_EQ(now["attempts"], 3);
  EXPECT_EQ(now["best"]["verdict"], "accepted") << now;
  EXPECT_EQ(now["best"]["passed"], 5) << now;
  EXPECT_EQ(now["best"]["cases"], 5) << now;

  JudgeRun text = scratch.judge({"list"});
  EXPECT_NE(text.out.find("solved       3 attempts, best accepted (5/5)"), std::string::npos) << text.out;
  JudgeRun history = scratch.judge({"history", "draws", "--format", "json"});
  EXPECT_EQ(history.status, 0) << history.err;
  nlohmann::json attempts = nlohmann::json::parse(history.out)["attempts"];
  ASSERT_EQ(attempts.size(), 3u) << history.out;
  std::vector<std::string> verdicts;
  for (const auto& attempt : attempts) {
    verdicts.push_back(attempt["verdict"]);
    EXPECT_EQ(attempt["time"].get<std::string>().size(), 20u) << attempt;  // 2026-12-01T20:31:17Z
    EXPECT_GT(attempt["seconds"].get<double>(), 0) << attempt;
  }
  EXPECT_EQ(verdicts, (std::vector<std::string>{"wrong_answer", "accepted", "runtime_error"}));
  JudgeRun table = scratch.judge({"history", "draws"});
  EXPECT_NE(table.out.find("draws: 3 attempts (solved)"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("accepted"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("5/5"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("2/5"), std::string::npos) << "the wrong attempt passed its samplers: " << table.out;
}

// A run whose attempt cannot be written to workspace/.progress.json: the
// verdict is printed and is the exit status; one line on stderr says what
// was not recorded and why. `prepare` runs in a shell before the judge.
struct Unrecordable {
  const char* what;
  std::string prepare;
  const char* why;
};

void expect_verdict_and_one_line(const Scratch& scratch, const Unrecordable& workspace, bool own_mounts) {
  std::string script = workspace.prepare + " && exec " + JUDGE_BINARY + " run draws --no-shrink";
  std::vector<std::string> argv = {"sh", "-c", script};
  if (own_mounts) argv.insert(argv.begin(), {"unshare", "--mount"});
  JudgeRun run = testing::run_program(argv, scratch.env);
  EXPECT_EQ(run.status, 1) << workspace.what << ": the verdict's status\n" << run.out << run.err;
  EXPECT_NE(run.out.find("draws: runtime_error (0 of 5 cases passed)"), std::string::npos) << workspace.what << run.out;
  const std::string record = fs::proximate(scratch.root / "workspace" / ".progress.json", JUDGE_SOURCE_DIR).string();
  EXPECT_EQ(run.err, "judge: this attempt was not recorded in your history: cannot write " + record + ": " +
                         workspace.why + "\n")
      << workspace.what;
}

TEST(PracticeLoop, AnAttemptThatCannotBeRecordedKeepsItsVerdictAndSaysWhy) {
  Scratch scratch("unrecorded");
  ASSERT_EQ(scratch.judge({"start", "draws"}).status, 0);
  const std::string record = (scratch.root / "workspace" / ".progress.json").string();
  expect_verdict_and_one_line(
      scratch, {"a directory in the record's place", "mkdir -p '" + record + "/x'", "Is a directory"}, false);
}

TEST(PracticeLoop, AReadOnlyOrFullWorkspaceKeepsTheVerdictAndSaysWhy) {
  if (testing::run_program({"unshare", "--mount", "true"}).status != 0)
    JUDGE_SKIP() << "needs a mount namespace of its own (root) to make a read-only and a full workspace";
  Scratch scratch("unwritable");
  ASSERT_EQ(scratch.judge({"start", "draws"}).status, 0);
  const std::string workspace = (scratch.root / "workspace").string();
  const std::string kept = (scratch.root / "draws.hpp").string();
  const std::vector<Unrecordable> cases = {
      {"a read-only workspace",
       "mount --bind '" + workspace + "' '" + workspace + "' && mount -o remount,bind,ro '" + workspace + "'",
       "Read-only file system"},
      {"a workspace on a full disk",
       "cp '" + workspace + "/draws.hpp' '" + kept + "' && mount -t tmpfs -o size=64k tmpfs '" + workspace +
           "' && cp '" + kept + "' '" + workspace + "/draws.hpp' && { dd if=/dev/zero of='" + workspace +
           "/filler' bs=4k 2>/dev/null; true; }",
       "No space left on device"},
  };
  for (const Unrecordable& unwritable : cases) expect_verdict_and_one_line(scratch, unwritable, true);
}

TEST(PracticeLoop, RunAllJudgesWhatIsStartedAndListsTheRest) {
  Scratch scratch("run_all");
  JudgeRun none = scratch.judge({"run", "--all"});
  EXPECT_EQ(none.status, 1) << "nothing started is not a judge failure: " << none.err;
  EXPECT_NE(none.out.find("draws                  not started"), std::string::npos) << none.out;
  nlohmann::json json = nlohmann::json::parse(scratch.judge({"run", "--all", "--format", "json"}).out);
  EXPECT_EQ(json["not_started"], nlohmann::json::array({"draws"})) << json;
  EXPECT_TRUE(json["results"].empty()) << json;

  ASSERT_EQ(scratch.judge({"start", "draws"}).status, 0);
  write_workspace_file(scratch, (scratch.root / "solutions/draws/reference.hpp").string());
  JudgeRun started = scratch.judge({"run", "--all"});
  EXPECT_EQ(started.status, 0) << started.out << started.err;
  EXPECT_NE(started.out.find("draws                  accepted"), std::string::npos) << started.out;
}

TEST(PracticeLoop, ListShowsTheOthersBesideABrokenProblemAndExitsTwo) {
  Scratch scratch("broken");
  fs::create_directories(scratch.root / "problems/zz_broken");
  std::ofstream(scratch.root / "problems/zz_broken/problem.yaml") << "title: Broken\norder: 2\nstatement: [unclosed\n";
  JudgeRun run = scratch.judge({"list"});
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.out.find(" 1. draws"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("zz_broken"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("broken: "), std::string::npos) << run.out;
  EXPECT_NE(run.err.find("zz_broken/problem.yaml:"), std::string::npos) << "file and line: " << run.err;
  JudgeRun json = scratch.judge({"list", "--format", "json"});
  EXPECT_EQ(json.status, 2);
  nlohmann::json out = nlohmann::json::parse(json.out);
  EXPECT_EQ(out["problems"].size(), 1u);
  ASSERT_EQ(out["broken"].size(), 1u);
  EXPECT_EQ(out["broken"][0]["problem"], "zz_broken");
}

// `run --all` and `validate --all` carry on past a malformed problem.yaml
// as `list` does: the others are judged and validated, and each broken one
// is named with its file and line.
TEST(PracticeLoop, RunAllAndValidateAllCarryOnPastABrokenProblem) {
  Scratch scratch("broken_all");
  fs::create_directories(scratch.root / "problems/aa_broken");
  std::ofstream(scratch.root / "problems/aa_broken/problem.yaml") << "title: Broken\norder: 0\nstatement: [unclosed\n";
  ASSERT_EQ(scratch.judge({"start", "draws"}).status, 0);
  write_workspace_file(scratch, (scratch.root / "solutions/draws/reference.hpp").string());

  JudgeRun run = scratch.judge({"run", "--all"});
  EXPECT_EQ(run.status, 2) << "a broken problem is the judge's failure to do that part: " << run.out << run.err;
  EXPECT_NE(run.out.find("draws                  accepted"), std::string::npos) << "the others are judged: " << run.out;
  const std::regex file_and_line(R"(aa_broken/problem\.yaml:\d+:\d+: )");
  EXPECT_TRUE(std::regex_search(run.err, file_and_line)) << "file and line: " << run.err;

  JudgeRun json = scratch.judge({"run", "--all", "--format", "json"});
  EXPECT_EQ(json.status, 2) << json.err;
  nlohmann::json out = nlohmann::json::parse(json.out);
  ASSERT_EQ(out["results"].size(), 1u) << out;
  EXPECT_EQ(out["results"][0]["problem"], "draws");

  JudgeRun validate = scratch.judge({"validate", "--all"});
  EXPECT_EQ(validate.status, 1) << validate.out << validate.err;
  // The fixture's draws has no solutions.yaml, so it is validated and fails
  // that check: what matters is that it was validated at all.
  EXPECT_NE(validate.out.find("validating draws\n  ok    spec and cases load"), std::string::npos)
      << "the others are validated: " << validate.out;
  EXPECT_NE(validate.out.find("validating aa_broken\n  FAIL  the problem files load"), std::string::npos)
      << validate.out;
  EXPECT_TRUE(std::regex_search(validate.out, file_and_line)) << validate.out;
  EXPECT_NE(validate.out.find(" of 2 problems valid"), std::string::npos) << validate.out;
  // The failures again at the end, for a log cut to its tail.
  const std::string tail = validate.out.substr(validate.out.find(" of 2 problems valid"));
  EXPECT_NE(tail.find("FAIL  aa_broken: the problem files load"), std::string::npos) << tail;
}

TEST(PracticeLoop, ShowGivesTheTimeLimitsTheCasesApply) {
  Scratch scratch("limits");
  JudgeRun plain = scratch.judge({"show", "draws"});
  EXPECT_NE(plain.out.find("Time: 2000 ms per request"), std::string::npos) << plain.out;
  EXPECT_EQ(plain.out.find(" case sets "), std::string::npos) << plain.out;
  std::ofstream(scratch.root / "problems/draws/hidden/slow.yaml") << R"(cases:
  - name: slow_one
    op: softmax_probs
    time_ms: 9000
    input: {logits: [1.0, 2.0]}
)";
  JudgeRun run = scratch.judge({"show", "draws"});
  EXPECT_NE(run.out.find("Time: 2000 ms per request"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("1 case sets 9000 ms (slow_one)"), std::string::npos) << run.out;
}

TEST(PracticeLoop, TheReferenceIsShownOnceSolvedOrWhenForced) {
  Scratch scratch("solution");
  JudgeRun refused = scratch.judge({"solution", "draws"});
  EXPECT_EQ(refused.status, 1);
  EXPECT_EQ(refused.out, "") << "nothing of the reference before it is solved";
  EXPECT_NE(refused.err.find("judge solution draws --force"), std::string::npos) << refused.err;

  JudgeRun forced = scratch.judge({"solution", "draws", "--force"});
  EXPECT_EQ(forced.status, 0) << forced.err;
  EXPECT_NE(forced.out.find(reference_text(scratch)), std::string::npos) << forced.out;
  EXPECT_NE(forced.err.find("spoiler"), std::string::npos) << forced.err;
  EXPECT_NE(forced.out.find("no explanation has been written"), std::string::npos) << forced.out;

  std::ofstream(scratch.root / "solutions/draws/explanation.md") << "# Why\n\nSubtract the max first.\n";
  ASSERT_EQ(scratch.judge({"start", "draws"}).status, 0);
  write_workspace_file(scratch, (scratch.root / "solutions/draws/reference.hpp").string());
  ASSERT_EQ(scratch.judge({"run", "draws"}).status, 0);
  JudgeRun solved = scratch.judge({"solution", "draws"});
  EXPECT_EQ(solved.status, 0) << solved.err;
  EXPECT_EQ(solved.err, "") << "no spoiler warning once solved";
  EXPECT_NE(solved.out.find(reference_text(scratch)), std::string::npos);
  EXPECT_NE(solved.out.find("Subtract the max first."), std::string::npos) << solved.out;
}

TEST(PracticeLoop, AnEndlessLoopWithoutSideEffectsIsATimeLimit) {
  Scratch scratch("endless");
  fs::path file = scratch.root / "endless.hpp";
  std::ofstream(file) << R"(#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>
inline std::vector<double> softmax_probs(const std::vector<double>& logits) {
  std::size_t i = 0;
  while (i < logits.size()) {
    // forgot ++i: a loop without side effects that never ends
  }
  return logits;
}
inline int softmax_sample(const std::vector<double>&, std::uint64_t) { return 0; }
)";
  JudgeRun run = scratch.judge({"run", "draws", "--solution", file.string(), "--format", "json"});
  EXPECT_EQ(run.status, 1) << run.err;
  nlohmann::json result = nlohmann::json::parse(run.out);
  for (const auto& test : result["tests"])
    if (test["name"] == "three_logits") {
      EXPECT_EQ(test["verdict"], "time_limit_exceeded") << test;
    }
}

TEST(PracticeLoop, TheCommandLineNamesItselfAndItsMistakes) {
  Scratch scratch("command_line");
  JudgeRun version = scratch.judge({"--version"});
  EXPECT_EQ(version.status, 0);
  EXPECT_EQ(version.out.rfind("judge ", 0), 0u) << version.out;
  JudgeRun help = scratch.judge({"--help"});
  EXPECT_NE(help.out.find("Usage: judge "), std::string::npos) << "no build path as the name: " << help.out;
  EXPECT_NE(help.out.find("Examples:"), std::string::npos) << help.out;
  JudgeRun unknown = scratch.judge({"rn", "draws"});
  EXPECT_EQ(unknown.status, 2);
  EXPECT_EQ(unknown.err.rfind("judge: unknown command 'rn' (did you mean 'run'?)", 0), 0u) << unknown.err;
  JudgeRun run_help = scratch.judge({"run", "--help"});
  EXPECT_NE(run_help.out.find("--solution FILE"), std::string::npos) << run_help.out;
}

}  // namespace
}  // namespace judge
