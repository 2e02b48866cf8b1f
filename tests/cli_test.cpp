// The judge's command line as scripts see it (spec/cli.md): exit statuses
// 0/1/2, `--format json` as exactly one object on stdout, one-line reasons on
// stderr, and learner prints that never reach stdout.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "fixture_files.hpp"
#include "run_judge.hpp"
#include "scratch_root.hpp"

namespace judge {
namespace {
namespace fs = std::filesystem;

using testing::JudgeRun;
using testing::run_judge;
using testing::run_program;

std::string fixture(const std::string& name) { return testing::fixture_file("temperature/" + name); }

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Checks the shape cli.md promises and returns the parsed object.
nlohmann::json parse_single_object(const std::string& out) {
  nlohmann::json result;
  try {
    result = nlohmann::json::parse(out);  // throws on anything after the object
  } catch (const nlohmann::json::exception& e) {
    ADD_FAILURE() << "stdout is not one JSON value: " << e.what() << "\n" << out.substr(0, 2000);
    return nullptr;
  }
  EXPECT_TRUE(result.is_object());
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << "one line of JSON";
  EXPECT_TRUE(result.contains("problem") && result["problem"].is_string());
  EXPECT_TRUE(result.contains("verdict") && result["verdict"].is_string());
  EXPECT_TRUE(result.contains("tests") && result["tests"].is_array());
  for (const auto& test : result.value("tests", nlohmann::json::array())) {
    // cli.md's five keys, with their types; more may be added.
    EXPECT_TRUE(test.contains("name") && test["name"].is_string()) << test.dump();
    EXPECT_TRUE(test.contains("hidden") && test["hidden"].is_boolean()) << test.dump();
    EXPECT_TRUE(test.contains("verdict") && test["verdict"].is_string()) << test.dump();
    EXPECT_TRUE(test.contains("time_ms") && test["time_ms"].is_number()) << test.dump();
    EXPECT_TRUE(test.contains("message") && test["message"].is_string()) << test.dump();
  }
  return result;
}

// `judge show temperature | head -1`: a reader that closed the pipe before
// the judge wrote is said in one line, not as an internal error. The pipe's
// read end is closed before the judge starts, so its first write fails.
TEST(Cli, AClosedPipeOnStdoutIsOneLineNotAnInternalError) {
  const char* closed_pipe = R"PY(
import os, subprocess, sys
read_end, write_end = os.pipe()
os.close(read_end)
sys.exit(subprocess.run(sys.argv[1:], stdout=write_end).returncode)
)PY";
  for (const std::vector<std::string>& command :
       {std::vector<std::string>{"show", "temperature"}, std::vector<std::string>{"list"}}) {
    std::vector<std::string> argv = {"python3", "-c", closed_pipe, JUDGE_BINARY};
    argv.insert(argv.end(), command.begin(), command.end());
    JudgeRun run = run_program(argv);
    EXPECT_EQ(run.status, 2) << command[0] << ": " << run.err;
    EXPECT_EQ(run.err, "judge: output cut short: the reader closed the pipe\n") << command[0];
  }
}

TEST(Cli, ReferenceExitsZeroWithOneJsonObject) {
  JudgeRun run = run_judge({"run", "temperature", "--reference", "--format", "json"});
  EXPECT_EQ(run.status, 0) << run.err;
  nlohmann::json result = parse_single_object(run.out);
  EXPECT_EQ(result.value("problem", ""), "temperature");
  EXPECT_EQ(result.value("verdict", ""), "accepted");
  ASSERT_FALSE(result["tests"].empty());
  EXPECT_EQ(result["tests"][0]["name"], "example_t1");
  EXPECT_EQ(result["tests"][0]["hidden"], false);
  EXPECT_EQ(result["tests"].back()["hidden"], true);
  for (const auto& test : result["tests"]) {
    EXPECT_EQ(test["verdict"], "accepted");
    EXPECT_EQ(test["message"], "");
  }
}

TEST(Cli, WrongSolutionExitsOneAndNamesTheFailure) {
  JudgeRun run = run_judge(
      {"run", "temperature", "--solution", "solutions/temperature/wrong/no_validation.hpp", "--format", "json"});
  EXPECT_EQ(run.status, 1) << run.err;
  nlohmann::json result = parse_single_object(run.out);
  EXPECT_EQ(result.value("verdict", ""), "wrong_answer");
  bool named = false;
  for (const auto& test : result["tests"])
    named = named || (test["verdict"] == "wrong_answer" &&
                      test["message"].get<std::string>().find("expected std::invalid_argument") != std::string::npos);
  EXPECT_TRUE(named) << run.out;
}

TEST(Cli, ASolutionIsOneFileAndEveryEditIsJudgedAgain) {
  fs::path dir = fs::path(JUDGE_TEST_BINARY_DIR) / "cli_test.files" / "one_file";
  fs::remove_all(dir);
  fs::create_directories(dir / "detail");
  std::ofstream(dir / "detail" / "body.hpp")
      << std::ifstream(fs::path(JUDGE_SOURCE_DIR) / "solutions/temperature/reference.hpp").rdbuf();
  std::ofstream(dir / "solution.hpp") << "#pragma once\n#include \"detail/body.hpp\"\n";
  auto judged = [&] {
    return parse_single_object(
        run_judge({"run", "temperature", "--solution", (dir / "solution.hpp").string(), "--format", "json"}).out);
  };
  nlohmann::json helper = judged();
  EXPECT_EQ(helper.value("verdict", ""), "compile_error");
  EXPECT_NE(helper.value("message", "")
                .find("cannot open detail/body.hpp: a solution is one file, compiled on its own "
                      "with the standard library, Eigen and the harness headers only"),
            std::string::npos)
      << helper.dump();
  auto write_whole = [&](const char* from) {
    std::ofstream(dir / "solution.hpp") << std::ifstream(fs::path(JUDGE_SOURCE_DIR) / from).rdbuf();
  };
  write_whole("solutions/temperature/reference.hpp");
  EXPECT_EQ(judged().value("verdict", ""), "accepted");
  // The same path, another content: judged again, not a cached pass.
  write_whole("solutions/temperature/wrong/multiplies_by_temperature.hpp");
  EXPECT_EQ(judged().value("verdict", ""), "wrong_answer");
}

TEST(Cli, CacheShowsWhatItHoldsAndClearEmptiesIt) {
  fs::path cache = fs::path(JUDGE_TEST_BINARY_DIR) / "cli_test.files" / "cache";
  fs::remove_all(cache);
  std::vector<std::string> env = {"JUDGE_CACHE_DIR=" + cache.string()};
  JudgeRun judged = run_judge({"run", "temperature", "--reference", "--format", "json"}, env);
  ASSERT_EQ(judged.status, 0) << judged.err;
  JudgeRun shown = run_judge({"cache"}, env);
  EXPECT_EQ(shown.status, 0) << shown.err;
  EXPECT_NE(shown.out.find("  runners       1"), std::string::npos) << shown.out;
  // The default bound, 2048 MiB, shared: seven eighths for runners, one for results.
  EXPECT_NE(shown.out.find("(least recently used removed past 1792.0 MiB; JUDGE_CACHE_MAX_MB sets it)"),
            std::string::npos)
      << shown.out;
  EXPECT_NE(shown.out.find("  results       1"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("(least recently used removed past 256.0 MiB, an eighth of the bound)"), std::string::npos)
      << shown.out;
  JudgeRun cleared = run_judge({"cache", "clear"}, env);
  EXPECT_EQ(cleared.status, 0) << cleared.err;
  EXPECT_EQ(cleared.out.rfind("cleared ", 0), 0u) << cleared.out;
  EXPECT_TRUE(fs::is_empty(cache));
  JudgeRun bad = run_judge({"cache", "empty"}, env);
  EXPECT_EQ(bad.status, 2);
}

TEST(Cli, ARunnerCutShortInTheCacheIsBuiltAgain) {
  fs::path cache = fs::path(JUDGE_TEST_BINARY_DIR) / "cli_test.files" / "cut_cache";
  fs::remove_all(cache);
  std::vector<std::string> env = {"JUDGE_CACHE_DIR=" + cache.string()};
  JudgeRun first = run_judge({"run", "temperature", "--reference", "--format", "json"}, env);
  ASSERT_EQ(first.status, 0) << first.err;
  std::vector<fs::path> runners;
  for (const fs::directory_entry& entry : fs::directory_iterator(cache))
    if (entry.is_regular_file() && entry.path().filename().string().rfind("temperature-", 0) == 0)
      runners.push_back(entry.path());
  ASSERT_EQ(runners.size(), 1u) << "the reference's runner";
  const std::uintmax_t whole = fs::file_size(runners[0]);
  fs::resize_file(runners[0], whole / 2);  // what a full disk or a killed copy leaves
  JudgeRun again = run_judge({"run", "temperature", "--reference", "--no-cache", "--format", "json"}, env);
  EXPECT_EQ(again.status, 0) << again.out << again.err;
  EXPECT_EQ(nlohmann::json::parse(again.out, nullptr, false).value("verdict", ""), "accepted") << again.out;
  EXPECT_EQ(fs::file_size(runners[0]), whole) << "built again whole";
}

// The fixture package `draws` (tests/fixtures/draws) in a scratch root
// beside the repository's harness; returns the root.
fs::path scratch_draws_root() { return testing::scratch_root("draws", "cli_test_draws"); }

// Cheap cases are judged and shown first, whatever their place in the
// files; the JSON keeps the files' order, and the verdict is that of the
// first failing case in it.
TEST(Cli, CheapCasesAreShownFirstAndJsonKeepsTheCaseOrder) {
  fs::path root = scratch_draws_root();
  std::vector<std::string> env = {"JUDGE_ROOT=" + root.string(), "JUDGE_CACHE_DIR=" + (root / "cache").string()};
  std::string wrong = (root / "solutions/draws/wrong/probs_unnormalized.hpp").string();
  JudgeRun text = run_judge({"run", "draws", "--solution", wrong}, env);
  EXPECT_EQ(text.status, 1) << text.err;
  std::size_t cheap_sample = text.out.find("FAIL  sample example_flat");
  std::size_t cheap_hidden = text.out.find("FAIL  hidden three_logits");
  std::size_t costly_sample = text.out.find("pass  sample sample_two_tokens");
  std::size_t costly_hidden = text.out.find("pass  hidden sample_three_tokens");
  ASSERT_NE(costly_sample, std::string::npos) << text.out;
  ASSERT_NE(costly_hidden, std::string::npos) << text.out;
  // The two cheap cases run at once, one per core, so either may finish
  // (and be shown) first; both come before the costly ones.
  for (std::size_t cheap : {cheap_sample, cheap_hidden}) {
    ASSERT_NE(cheap, std::string::npos) << text.out;
    EXPECT_LT(cheap, costly_sample) << text.out;
    EXPECT_LT(cheap, costly_hidden) << text.out;
  }

  JudgeRun json = run_judge({"run", "draws", "--solution", wrong, "--format", "json", "--no-cache"}, env);
  nlohmann::json result = parse_single_object(json.out);
  std::vector<std::string> names;
  for (const auto& test : result["tests"]) names.push_back(test["name"]);
  EXPECT_EQ(names,
            (std::vector<std::string>{"sample_two_tokens", "example_flat", "sample_three_tokens", "three_logits"}));
  EXPECT_EQ(result.value("verdict", ""), "wrong_answer");
  EXPECT_EQ(result["tests"][0]["verdict"], "accepted");
  EXPECT_EQ(result["tests"][1]["verdict"], "wrong_answer");
}

// A package with learner bindings (harness/problems/SLUG.learner.hpp) has its
// adapter compiled once, and each solution apart; a wrong signature is still
// a compile error that shows the declarations; a package without bindings
// compiles its adapter with each solution, as before; an adapter that does
// not compile is the package's fault (exit 2), not a verdict.
TEST(Cli, TheAdapterIsCompiledOnceAndEachSolutionApart) {
  fs::path root = testing::scratch_root("draws", "cli_test_adapter_once");
  fs::path cache = root / "cache";
  std::vector<std::string> env = {"JUDGE_ROOT=" + root.string(), "JUDGE_CACHE_DIR=" + cache.string()};
  auto adapter_objects = [&] {
    std::size_t count = 0;
    for (const auto& entry : fs::recursive_directory_iterator(cache))
      if (entry.path().parent_path().filename() == "adapters" && entry.path().extension() == ".o") ++count;
    return count;
  };
  EXPECT_EQ(run_judge({"run", "draws", "--reference"}, env).status, 0);
  std::string wrong = (root / "solutions/draws/wrong/probs_unnormalized.hpp").string();
  EXPECT_EQ(run_judge({"run", "draws", "--solution", wrong}, env).status, 1);
  EXPECT_EQ(adapter_objects(), 1u) << "two solutions, one adapter object";

  std::string reference = read_text(root / "solutions/draws/reference.hpp");
  auto judge_variant = [&](const std::string& name, const std::string& from, const std::string& to) {
    std::string text = reference;
    std::size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    fs::path file = root / name;
    std::ofstream(file) << text;
    return run_judge({"run", "draws", "--solution", file.string(), "--format", "json"}, env);
  };
  for (const auto& [name, from, to] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"by_value.hpp", "const std::vector<double>& logits, std::uint64_t",
            "std::vector<double> logits, std::uint64_t"},
           {"misspelt.hpp", "softmax_probs(", "softmax_prob("}}) {
    JudgeRun run = judge_variant(name, from, to);
    EXPECT_EQ(run.status, 1) << name << run.err;
    nlohmann::json result = parse_single_object(run.out);
    EXPECT_EQ(result.value("verdict", ""), "compile_error") << name;
    std::string message = result.value("message", "");
    EXPECT_NE(message.find("The harness calls your code with exactly these declarations"), std::string::npos)
        << name << ":\n"
        << message;
    EXPECT_NE(message.find("softmax_sample(const std::vector<double>& logits, std::uint64_t seed)"), std::string::npos)
        << name << ":\n"
        << message;
  }

  // The same package without bindings: the adapter includes the solution.
  fs::path adapter = root / "harness/problems/draws.cpp";
  std::string text = read_text(adapter);
  const std::string include = "#include JUDGE_LEARNER_BINDINGS";
  ASSERT_NE(text.find(include), std::string::npos);
  text.replace(text.find(include), include.size(), "#include JUDGE_SOLUTION");
  for (std::size_t at = text.find("judge_learner::"); at != std::string::npos; at = text.find("judge_learner::"))
    text.erase(at, std::string("judge_learner::").size());
  std::ofstream(adapter) << text;
  fs::remove(root / "harness/problems/draws.learner.hpp");
  JudgeRun whole = run_judge({"run", "draws", "--reference"}, env);
  EXPECT_EQ(whole.status, 0) << whole.out << whole.err;
  EXPECT_EQ(adapter_objects(), 1u) << "no adapter object without bindings";

  // Bindings beside an adapter that does not compile: the package's fault.
  std::ofstream(root / "harness/problems/draws.learner.hpp")
      << read_text(fs::path(JUDGE_TESTS_DIR) / "fixtures/draws/harness/problems/draws.learner.hpp");
  std::ofstream(adapter, std::ios::app) << "this is not C++\n";
  JudgeRun broken = run_judge({"run", "draws", "--reference"}, env);
  EXPECT_EQ(broken.status, 2) << broken.out << broken.err;
  EXPECT_NE(broken.err.find("harness/problems/draws.cpp does not compile"), std::string::npos) << broken.err;
  fs::remove_all(root);
}

// A cache of its own takes the precompiled preludes and adapter objects the
// default cache built from the same harness and compiler (linked, not
// compiled again), and judges with them; without a default cache that has
// them, it builds its own.
TEST(Cli, AFreshCacheTakesBuiltInputsFromTheDefaultCache) {
  fs::path root = testing::scratch_root("draws", "cli_test_borrowed_inputs");
  auto judge_reference = [&](const fs::path& cache, const fs::path& default_cache) {
    JudgeRun run =
        run_judge({"run", "draws", "--reference"}, {"JUDGE_ROOT=" + root.string(), "JUDGE_CACHE_DIR=" + cache.string(),
                                                    "JUDGE_DEFAULT_CACHE_DIR=" + default_cache.string()});
    EXPECT_EQ(run.status, 0) << run.out << run.err;
  };
  auto built_inputs = [](const fs::path& cache) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::recursive_directory_iterator(cache))
      if (entry.path().extension() == ".gch" || entry.path().parent_path().filename() == "adapters")
        files.push_back(fs::relative(entry.path(), cache));
    std::sort(files.begin(), files.end());
    return files;
  };
  const fs::path shared = root / "default-cache", fresh = root / "fresh-cache", alone = root / "alone-cache";
  judge_reference(shared, shared);
  judge_reference(fresh, shared);
  judge_reference(alone, alone);
  std::vector<fs::path> files = built_inputs(shared);
  ASSERT_GE(files.size(), 2u) << "a precompiled prelude and an adapter object";
  EXPECT_EQ(built_inputs(fresh), files);
  EXPECT_EQ(built_inputs(alone), files);
  for (const fs::path& file : files) {
    EXPECT_TRUE(fs::equivalent(shared / file, fresh / file)) << file << " was compiled again, not taken";
    EXPECT_FALSE(fs::equivalent(shared / file, alone / file)) << file;
  }
  fs::remove_all(root);
}

// validate's timing check: a reference whose slowest request leaves less
// than the headroom its case needs fails it, even timed a second time; one
// with room passes it.
TEST(Cli, ValidateFailsAReferenceWithoutTimeHeadroom) {
  fs::path root = testing::scratch_root("draws", "cli_test_headroom");
  std::ofstream(root / "solutions/draws/solutions.yaml") << "reference: reference.hpp\naccepted: []\nwrong: []\n";
  fs::path spec = root / "problems/draws/problem.yaml";
  const std::string original = read_text(spec), roomy = "limits: {time_ms: 2000,", tight = "limits: {time_ms: 100,";
  ASSERT_NE(original.find(roomy), std::string::npos);
  std::vector<std::string> env = {"JUDGE_ROOT=" + root.string(), "JUDGE_CACHE_DIR=" + (root / "cache").string()};
  JudgeRun with_room = run_judge({"validate", "draws"}, env);
  EXPECT_NE(with_room.out.find("ok    time: the reference's tightest request"), std::string::npos) << with_room.out;
  std::string text = original;
  text.replace(text.find(roomy), roomy.size(), tight);
  std::ofstream(spec) << text;
  // The sampler's cases take tens of milliseconds and need 20 times that.
  JudgeRun without = run_judge({"validate", "draws"}, env);
  EXPECT_EQ(without.status, 1);
  EXPECT_NE(without.out.find("FAIL  time: the reference's tightest request (sample_"), std::string::npos)
      << without.out;
  fs::remove_all(root);
}

// validate's check of an honest slower alternative compares the runners'
// CPU time on the costliest statistical case: an alternative that does a
// thousand exponentials more per draw passes a slowdown it has and fails
// one it has not, and the line says CPU time (load between the two runs
// would move a ratio of wall times).
TEST(Cli, ValidateMeasuresASlowerAlternativeInCpuTime) {
  fs::path root = testing::scratch_root("draws", "cli_test_slowdown");
  fs::create_directories(root / "solutions/draws/accepted");
  std::string slow = read_text(root / "solutions/draws/reference.hpp");
  const std::string draw = "inline int softmax_sample(const std::vector<double>& logits, std::uint64_t seed) {\n";
  ASSERT_NE(slow.find(draw), std::string::npos);
  slow.replace(slow.find(draw), draw.size(),
               draw +
                   "  volatile double spent = 0;\n"
                   "  for (int i = 0; i < 20000; ++i) spent = spent + std::exp(logits[0] - i * 1e-9);\n");
  std::ofstream(root / "solutions/draws/accepted/slow.hpp") << slow;
  std::vector<std::string> env = {"JUDGE_ROOT=" + root.string(), "JUDGE_CACHE_DIR=" + (root / "cache").string()};
  auto validate_with = [&](const std::string& slowdown) {
    std::ofstream(root / "solutions/draws/solutions.yaml")
        << "reference: reference.hpp\naccepted:\n  - {file: accepted/slow.hpp, note: slower, slowdown: " << slowdown
        << "}\nwrong: []\n";
    return run_judge({"validate", "draws"}, env).out;
  };
  // The line of validate's output that states the slowdown.
  auto slowdown_line = [](const std::string& out) {
    const std::size_t at = out.find("x the reference's CPU time on sample_");
    if (at == std::string::npos) return std::string("(no slowdown line) ") + out;
    const std::size_t start = out.rfind('\n', at) + 1;
    return out.substr(start, out.find('\n', at) - start);
  };
  const std::string honest = slowdown_line(validate_with("2"));
  EXPECT_EQ(honest.rfind("  ok    ", 0), 0u) << honest;
  EXPECT_NE(honest.find("accepted/slow.hpp: "), std::string::npos) << honest;
  const std::string overstated = slowdown_line(validate_with("100000"));
  EXPECT_EQ(overstated.rfind("  FAIL  ", 0), 0u) << overstated;
  fs::remove_all(root);
}

TEST(Cli, TextOutputEndsWithTheVerdict) {
  JudgeRun run = run_judge({"run", "temperature", "--solution", "solutions/temperature/wrong/no_validation.hpp"});
  EXPECT_EQ(run.status, 1) << run.err;
  EXPECT_NE(run.out.find("temperature: wrong_answer ("), std::string::npos) << run.out;
}

TEST(Cli, LearnerPrintsNeverReachStdoutInJson) {
  for (const auto& [name, verdict, status] : {std::tuple{"prints_fake_verdicts.hpp", "accepted", 0},
                                              std::tuple{"prints_fake_verdicts_wrong.hpp", "wrong_answer", 1}}) {
    JudgeRun run = run_judge({"run", "temperature", "--solution", fixture(name), "--format", "json"});
    EXPECT_EQ(run.status, status) << name << ": " << run.err;
    EXPECT_EQ(run.out.find("FAKE-VERDICT"), std::string::npos) << name << ":\n" << run.out.substr(0, 2000);
    EXPECT_EQ(run.err.find("FAKE-VERDICT"), std::string::npos) << name << ":\n" << run.err.substr(0, 2000);
    nlohmann::json result = parse_single_object(run.out);
    EXPECT_EQ(result.value("verdict", ""), verdict) << name;
  }
}

struct UsageCase {
  const char* protects;
  std::vector<std::string> args;
  std::string stderr_prefix;  // the whole line when `exact`
  bool exact;
};

TEST(Cli, JudgeFailuresExitTwoWithOneLineOnStderr) {
  const UsageCase cases[] = {
      {"an unknown problem", {"run", "nope"}, "judge: unknown problem 'nope'; the problems are: ", false},
      {"an unknown problem for show", {"show", "nope"}, "judge: unknown problem 'nope'; the problems are: ", false},
      {"--solution of a missing file",
       {"run", "temperature", "--solution", "/nonexistent/x.hpp"},
       "judge: --solution: no such file '/nonexistent/x.hpp'\n",
       true},
      {"both PROBLEM and --all",
       {"run", "temperature", "--all"},
       "judge: PROBLEM excludes --all (see judge --help)\n",
       true},
      {"neither PROBLEM nor --all", {"run"}, "judge: run: missing PROBLEM (or --all)\n", true},
      {"--reference with --solution",
       {"run", "temperature", "--reference", "--solution", "x.hpp"},
       "judge: --solution excludes --reference (see judge --help)\n",
       true},
      {"a bad --format", {"run", "temperature", "--format", "xml"}, "judge: ", false},
      {"--jobs 0", {"run", "temperature", "--jobs", "0"}, "judge: --jobs: Value 0 not in range 1 to 64", false},
      {"an unknown option", {"run", "temperature", "--frobnicate"}, "judge: ", false},
      {"an unknown command", {"frobnicate"}, "judge: ", false},
      {"no command", {}, "judge: ", false},
  };
  for (const UsageCase& c : cases) {
    JudgeRun run = run_judge(c.args);
    EXPECT_EQ(run.status, 2) << c.protects << ": " << run.err;
    EXPECT_EQ(run.out, "") << c.protects;
    if (c.exact)
      EXPECT_EQ(run.err, c.stderr_prefix) << c.protects;
    else
      EXPECT_EQ(run.err.rfind(c.stderr_prefix, 0), 0u) << c.protects << ": " << run.err;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << c.protects << ": one line, got:\n" << run.err;
    EXPECT_TRUE(!run.err.empty() && run.err.back() == '\n') << c.protects;
  }
}

}  // namespace
}  // namespace judge
