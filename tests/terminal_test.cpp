// The terminal side: the live "case 12/39" line only when asked for (a
// tty), colour by NO_COLOR, FORCE_COLOR and CLICOLOR_FORCE, `judge watch`
// judging again after a save (also a save by rename) and leaving with
// status 0 on Ctrl-C, each command's --help examples, and the completion
// scripts.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <thread>

#include "cli/command.hpp"
#include "report/reporter.hpp"
#include "run_judge.hpp"
#include "scratch_root.hpp"
#include "util/terminal.hpp"

namespace judge {
namespace {
namespace fs = std::filesystem;
using testing::JudgeRun;
using testing::run_judge;

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

std::string text_report(bool live) {
  char* buffer = nullptr;
  std::size_t size = 0;
  std::FILE* out = open_memstream(&buffer, &size);
  {
    Problem problem;
    problem.slug = "toy";
    problem.samples.resize(3);
    std::unique_ptr<Reporter> reporter = make_text_reporter(out, false, live);
    reporter->begin_problem(problem, "toy.hpp");
    reporter->progress("compiling");
    ProblemResult result;
    result.problem = "toy";
    for (const char* name : {"one", "two", "three"}) {
      TestResult test;
      test.name = name;
      reporter->case_finished(test);
      result.tests.push_back(test);
    }
    reporter->problem_finished(result);
    reporter->finish(false);
  }
  std::fclose(out);
  std::string text(buffer, size);
  std::free(buffer);
  return text;
}

TEST(LiveProgress, OverwrittenLineOnlyWhenLive) {
  std::string plain = text_report(false);
  EXPECT_EQ(plain.find('\r'), std::string::npos) << plain;
  EXPECT_EQ(plain.find("case 2/3"), std::string::npos);
  EXPECT_NE(plain.find("  compiling...\n"), std::string::npos);

  std::string live = text_report(true);
  EXPECT_NE(live.find("\r\033[K  compiling..."), std::string::npos) << live;
  EXPECT_NE(live.find("\r\033[K  case 2/3..."), std::string::npos) << live;
  EXPECT_NE(live.find("\r\033[K  case 3/3..."), std::string::npos) << live;
  EXPECT_EQ(live.find("case 4/3"), std::string::npos);
  EXPECT_NE(
      live.find("sample three                                          0.0 ms\ntoy: accepted (3 of 3 cases passed)\n"),
      std::string::npos)
      << "no live line after the last case: " << live;
}

TEST(Watch, JudgesAgainAfterEachSaveAndCtrlCExitsZero) {
  fs::path dir = fs::temp_directory_path() / ("judge-watch-test-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::path file = dir / "mine.hpp";
  // Compile errors all along: no case runs and no known mistake is compiled
  // for a hint, so each judging takes a second or two.
  fs::path broken = fs::path(JUDGE_TESTS_DIR) / "fixtures" / "temperature" / "compile_error.hpp";
  fs::copy_file(broken, file);

  SpawnSpec spec;
  spec.argv = {JUDGE_BINARY, "watch", "temperature", "--solution", file.string()};
  spec.env = testing::judge_environment();
  spec.working_dir = JUDGE_SOURCE_DIR;
  std::string error;
  std::unique_ptr<Child> child = Child::spawn(spec, &error);
  ASSERT_TRUE(child) << error;
  CapturedOutput out(1 << 20), err(1 << 20);
  auto judged = [](std::size_t n) {
    return [n](const std::string& text) { return count(text, "(save to judge again, Ctrl-C to stop)") >= n; };
  };
  ASSERT_TRUE(testing::read_until(*child, &out, &err, judged(1), 120000)) << out.head << err.head;
  EXPECT_NE(out.head.find("temperature: compile_error"), std::string::npos) << out.head;

  // An editor's save: a new file renamed over the old one.
  fs::copy_file(broken, dir / "mine.hpp.tmp");
  std::ofstream(dir / "mine.hpp.tmp", std::ios::app) << "// renamed over\n";
  fs::rename(dir / "mine.hpp.tmp", file);
  ASSERT_TRUE(testing::read_until(*child, &out, &err, judged(2), 120000)) << out.head << err.head;

  // Other files in the directory are not the solution.
  std::ofstream(dir / "other.hpp") << "// not watched\n";
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  child->drain(&out, &err);
  EXPECT_EQ(count(out.head, "judging temperature:"), 2u) << "one judging per save of the file: " << out.head;
  // A save in place.
  std::ofstream(file, std::ios::app) << "// saved again\n";
  ASSERT_TRUE(testing::read_until(*child, &out, &err, judged(3), 120000)) << out.head << err.head;

  kill(child->pid(), SIGINT);
  ASSERT_TRUE(testing::read_until(
      *child, &out, &err, [](const std::string& text) { return text.find("stopped watching") != std::string::npos; },
      30000))
      << out.head << err.head;
  ExitStatus status = child->wait();
  EXPECT_TRUE(status.exited);
  EXPECT_EQ(status.code, 0);
  fs::remove_all(dir);
}

TEST(Colour, NoColorWinsThenForcingThenTheTerminal) {
  struct Case {
    bool terminal;
    const char* no_color;
    const char* force_color;
    const char* clicolor_force;
    bool colour;
  };
  const Case cases[] = {
      {true, nullptr, nullptr, nullptr, true},    // a terminal
      {false, nullptr, nullptr, nullptr, false},  // a pipe
      {true, "1", nullptr, nullptr, false},       // NO_COLOR, any value...
      {true, "0", nullptr, nullptr, false},       // ... "0" included
      {true, "", nullptr, nullptr, true},         // empty is unset
      {false, nullptr, "1", nullptr, true},       // FORCE_COLOR into a pipe
      {false, nullptr, "3", nullptr, true},       // any level
      {false, nullptr, nullptr, "1", true},       // CLICOLOR_FORCE into a pipe
      {false, nullptr, "0", nullptr, false},      // "0" forces nothing
      {false, nullptr, nullptr, "0", false},
      {false, nullptr, "", "", false},
      {true, nullptr, "0", nullptr, true},  // and does not turn a terminal's colour off
      {false, "1", "1", "1", false},        // NO_COLOR wins over both
  };
  for (const Case& c : cases)
    EXPECT_EQ(colour_wanted(c.terminal, c.no_color, c.force_color, c.clicolor_force), c.colour)
        << "terminal " << c.terminal << " NO_COLOR " << (c.no_color ? c.no_color : "(unset)") << " FORCE_COLOR "
        << (c.force_color ? c.force_color : "(unset)") << " CLICOLOR_FORCE "
        << (c.clicolor_force ? c.clicolor_force : "(unset)");
}

TEST(Colour, ForcedIntoAPipeUnlessNoColor) {
  fs::path root = testing::scratch_root("draws", "colour");
  auto judged = [&](std::vector<std::string> env) {
    env.push_back("JUDGE_ROOT=" + root.string());
    env.push_back("JUDGE_WORKSPACE=" + (root / "workspace").string());
    for (const char* name : {"NO_COLOR=", "FORCE_COLOR=", "CLICOLOR_FORCE="})
      if (std::none_of(env.begin(), env.end(), [&](const std::string& v) { return v.rfind(name, 0) == 0; }))
        env.push_back(name);
    return run_judge({"run", "draws", "--reference"}, env);
  };
  JudgeRun plain = judged({});
  ASSERT_EQ(plain.status, 0) << plain.out << plain.err;
  EXPECT_EQ(plain.out.find("\x1b["), std::string::npos) << "a pipe gets no colour";
  for (const char* force : {"FORCE_COLOR=1", "CLICOLOR_FORCE=1"}) {
    JudgeRun forced = judged({force});
    EXPECT_NE(forced.out.find("\x1b[32m"), std::string::npos) << force << ": " << forced.out;
    EXPECT_EQ(forced.out.find('\r'), std::string::npos) << "colour, but no live line in a pipe";
    JudgeRun refused = judged({force, "NO_COLOR=1"});
    EXPECT_EQ(refused.out.find("\x1b["), std::string::npos) << force << " with NO_COLOR: " << refused.out;
  }
}

TEST(Help, EveryCommandShowsExamplesOfItself) {
  for (const CommandEntry& entry : command_table()) {
    if (entry.hidden) continue;
    JudgeRun help = run_judge({entry.name, "--help"});
    EXPECT_EQ(help.status, 0) << entry.name;
    std::size_t examples = help.out.find("\nExamples:\n");
    ASSERT_NE(examples, std::string::npos) << entry.name << ": " << help.out;
    EXPECT_NE(help.out.find("judge " + std::string(entry.name), examples), std::string::npos)
        << entry.name << ": its examples use it: " << help.out;
  }
  EXPECT_EQ(command_examples("__slugs"), "") << "a hidden command has none";
}

TEST(Watch, MissingFileExitsTwo) {
  JudgeRun run = run_judge({"watch", "temperature", "--solution", "/nonexistent/mine.hpp"});
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.err, "judge: watch: no such file '/nonexistent/mine.hpp'\n");
}

const char* const kCommands[] = {"list",  "show",   "start",    "run", "grade",
                                 "watch", "doctor", "validate", "new", "completion"};

// A JUDGE_ROOT of two problems of the tests' own (the draws fixture, and a
// copy of it named beta), so that what completes does not depend on the
// course's problems.
fs::path two_problem_root(const std::string& name) {
  fs::path root = testing::scratch_root("draws", name);
  fs::copy(root / "problems" / "draws", root / "problems" / "beta", fs::copy_options::recursive);
  return root;
}

TEST(Completion, BashScriptCompletesCommandsOptionsAndSlugs) {
  JudgeRun run = run_judge({"completion", "bash"});
  ASSERT_EQ(run.status, 0) << run.err;
  for (const char* command : kCommands)
    EXPECT_NE(run.out.find(std::string("    ") + command + ")"), std::string::npos) << command;
  for (const char* option : {"--solution", "--format", "--sanitize", "--jobs", "--out", "--all", "--reference"})
    EXPECT_NE(run.out.find(option), std::string::npos) << option;
  EXPECT_NE(run.out.find("junit exercism gradescope"), std::string::npos);
  EXPECT_NE(run.out.find("complete -F _judge judge"), std::string::npos);
  EXPECT_EQ(run.out.find("__slugs)"), std::string::npos) << "the hidden command is not offered";

  // Complete in a real bash, the judge on PATH.
  fs::path script = fs::temp_directory_path() / ("judge-completion-" + std::to_string(getpid()) + ".bash");
  std::ofstream(script) << run.out << R"(
show() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _judge; echo "${COMPREPLY[*]}"; }
show judge ru
show judge run ""
show judge run top_p --form
show judge run top_p --format ""
show judge run --solution x.hpp ""
show judge completion ""
)";
  SpawnSpec spec;
  spec.argv = {"bash", "--norc", "--noprofile", script.string()};
  fs::path root = two_problem_root("completion_bash");
  spec.env = testing::judge_environment(
      {"PATH=" + fs::path(JUDGE_BINARY).parent_path().string() + ":/usr/bin:/bin", "JUDGE_ROOT=" + root.string()});
  CommandResult result = run_command(spec, 30000);
  fs::remove(script);
  ASSERT_TRUE(result.status.exited && result.status.code == 0) << result.output;
  EXPECT_EQ(result.output,
            "run\n"
            "beta draws\n"
            "--format\n"
            "text json junit exercism gradescope\n"
            "beta draws\n"
            "bash zsh\n");
}

TEST(Completion, ZshScriptDefinesTheCompletion) {
  JudgeRun run = run_judge({"completion", "zsh"});
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out.rfind("#compdef judge\n", 0), 0u);
  for (const char* command : kCommands)
    EXPECT_NE(run.out.find(std::string("    '") + command + ":"), std::string::npos) << command;
  EXPECT_NE(run.out.find("'--format[output format]:format:(text json junit exercism gradescope)'"), std::string::npos);
  EXPECT_NE(run.out.find("'--solution[judge FILE instead of your workspace file]:solution:_files'"), std::string::npos);
  EXPECT_NE(run.out.find("__slugs"), std::string::npos);
  if (fs::exists("/usr/bin/zsh") || fs::exists("/bin/zsh")) {
    fs::path script = fs::temp_directory_path() / ("judge-completion-" + std::to_string(getpid()) + ".zsh");
    std::ofstream(script) << run.out;
    SpawnSpec spec;
    spec.argv = {"zsh", "-n", script.string()};
    spec.env = testing::judge_environment();
    CommandResult result = run_command(spec, 30000);
    fs::remove(script);
    EXPECT_TRUE(result.status.exited && result.status.code == 0) << result.output;
  }
}

TEST(Completion, SlugsAreListedAndOtherShellsRefused) {
  fs::path root = two_problem_root("slugs");
  fs::create_directories(root / "problems" / "not_a_problem");  // no problem.yaml
  JudgeRun slugs = run_judge({"__slugs"}, {"JUDGE_ROOT=" + root.string()});
  EXPECT_EQ(slugs.status, 0);
  EXPECT_EQ(slugs.out, "beta\ndraws\n");
  JudgeRun help = run_judge({"--help"});
  EXPECT_EQ(help.out.find("__slugs"), std::string::npos) << "hidden from --help";
  JudgeRun fish = run_judge({"completion", "fish"});
  EXPECT_EQ(fish.status, 2);
}

}  // namespace
}  // namespace judge
