// Course platforms and grading beyond one machine, through the judge
// binary on the fixture problem `draws` (tests/fixtures/draws) and its
// class (tests/fixtures/class):
//  - `judge export gradescope`: the archive's run_autograder, run against a
//    simulated /autograder tree with the judge this build made;
//  - bin/run.sh, Exercism's test-runner entry point: pass, fail, compile
//    error, a missing file; results.json version 3, exit 0 each time;
//  - `judge grade --shard K/N` and `--merge`: the shards' merged report is
//    the report of one run over the whole folder.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "course/grade.hpp"
#include "run_judge.hpp"
#include "scratch_root.hpp"
#include "util/errors.hpp"

namespace judge {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;
using testing::JudgeRun;

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

json read_json(const fs::path& path) {
  json data = json::parse(read_text(path), nullptr, false);
  EXPECT_FALSE(data.is_discarded()) << path << ":\n" << read_text(path);
  return data;
}

fs::path build_dir() { return fs::path(JUDGE_BINARY).parent_path().parent_path(); }
fs::path fixture(const std::string& name) { return fs::path(JUDGE_TESTS_DIR) / "fixtures" / name; }
fs::path draws_reference() { return fixture("draws/solutions/draws/reference.hpp"); }
fs::path draws_mistake() { return fixture("draws/solutions/draws/wrong/probs_unnormalized.hpp"); }

// A scratch root with the fixture problem only, removed at the end; the
// build's runner cache is shared (it is keyed by content).
class PlatformsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    root_ = testing::scratch_root("draws", "platforms_" + name + "_" + std::to_string(getpid()));
    work_ = root_ / "work";
    fs::create_directories(work_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(root_, ignored);
  }
  std::vector<std::string> env() const {
    return {"JUDGE_ROOT=" + root_.string(), "JUDGE_WORKSPACE=" + (root_ / "workspace").string(),
            "JUDGE_CACHE_DIR=" + (build_dir() / "runners").string()};
  }
  JudgeRun judge(const std::vector<std::string>& args) const { return testing::run_judge(args, env()); }

  // Each case of the problem: hidden or not, as `judge run --format json` reports it.
  std::map<std::string, bool> cases_hidden() const {
    JudgeRun run = judge({"run", "draws", "--reference", "--format", "json"});
    EXPECT_EQ(run.status, 0) << run.err;
    EXPECT_NE(run.out.find("\"tests\""), std::string::npos) << run.out << run.err;
    std::map<std::string, bool> hidden;
    const json result = json::parse(run.out);
    for (const json& test : result["tests"]) hidden[test["name"]] = test["hidden"];
    return hidden;
  }

  fs::path root_, work_;
};

// ---- Gradescope ----------------------------------------------------------

// Unpacks the archive as Gradescope does (into /autograder/source), and
// puts this build's judge where setup.sh would have built it.
fs::path simulated_autograder(const fs::path& archive, const fs::path& at) {
  fs::path source = at / "source";
  fs::create_directories(source);
  JudgeRun unzip = testing::run_program({"/usr/bin/unzip", "-q", archive.string(), "-d", source.string()});
  EXPECT_EQ(unzip.status, 0) << unzip.err;
  fs::path built = source / "judge" / "build";
  fs::create_directories(built / "judge");
  fs::create_directories(built / "harness");
  fs::copy_file(JUDGE_BINARY, built / "judge" / "judge");
  fs::copy_file(build_dir() / "harness" / "libjudge_harness.a", built / "harness" / "libjudge_harness.a");
  fs::create_directories(at / "submission");
  return source;
}

JudgeRun run_autograder(const fs::path& autograder) {
  // Gradescope copies run_autograder to /autograder and runs it there.
  fs::copy_file(autograder / "source" / "run_autograder", autograder / "run_autograder",
                fs::copy_options::overwrite_existing);
  return testing::run_program(
      {(autograder / "run_autograder").string()},
      {"JUDGE_AUTOGRADER_ROOT=" + autograder.string(), "JUDGE_CACHE_DIR=" + (build_dir() / "runners").string()});
}

// Every library the top CMakeLists.txt requires outside the tests, by the
// Debian package that provides it: the Dockerfile (Exercism's runner) and
// the Gradescope setup.sh must install each, or they cannot configure. A
// new requirement without a row here fails first, so the list is kept.
TEST_F(PlatformsTest, TheDockerfileAndGradescopeInstallWhatConfiguringNeeds) {
  const std::map<std::string, std::string> package_of = {
      {"fmt", "libfmt-dev"},       {"yaml-cpp", "libyaml-cpp-dev"},         {"Eigen3", "libeigen3-dev"},
      {"CLI11", "libcli11-dev"},   {"nlohmann_json", "nlohmann-json3-dev"}, {"OpenSSL", "libssl-dev"},
      {"PkgConfig", "pkg-config"}, {"libseccomp", "libseccomp-dev"},        {"libzip", "libzip-dev"},
      {"ZLIB", "zlib1g-dev"},      {"cpp-httplib", "libcpp-httplib-dev"},   {"Boost", "libboost-math-dev"}};
  std::set<std::string> required;
  std::istringstream lines(read_text(fs::path(JUDGE_SOURCE_DIR) / "CMakeLists.txt"));
  for (std::string line; std::getline(lines, line);) {
    // Top-level lines only: the tests' own requirements are indented in an if().
    for (const std::string call : {"find_package(", "pkg_check_modules("}) {
      if (line.rfind(call, 0) != 0) continue;
      std::istringstream words(line.substr(call.size()));
      std::string name;
      words >> name;
      if (call == "pkg_check_modules(") {  // NAME REQUIRED IMPORTED_TARGET module
        std::string word;
        while (words >> word) name = word;
        if (!name.empty() && name.back() == ')') name.pop_back();
      }
      required.insert(name);
    }
  }
  ASSERT_TRUE(required.count("fmt")) << "the requirements were not read from CMakeLists.txt";
  fs::path archive = work_ / "autograder.zip";
  JudgeRun exported = judge({"export", "gradescope", "draws", "--out", archive.string()});
  ASSERT_EQ(exported.status, 0) << exported.out << exported.err;
  const std::string setup = read_text(simulated_autograder(archive, work_ / "autograder") / "setup.sh");
  const std::string dockerfile = read_text(fs::path(JUDGE_SOURCE_DIR) / "Dockerfile");
  auto installs = [](const std::string& script, const std::string& package) {
    for (std::size_t at = script.find(package); at != std::string::npos; at = script.find(package, at + 1)) {
      bool starts = at == 0 || std::isspace(static_cast<unsigned char>(script[at - 1]));
      std::size_t end = at + package.size();
      bool ends = end == script.size() || std::isspace(static_cast<unsigned char>(script[end])) || script[end] == '\\';
      if (starts && ends) return true;
    }
    return false;
  };
  for (const std::string& name : required) {
    auto found = package_of.find(name);
    ASSERT_NE(found, package_of.end()) << "CMakeLists.txt requires " << name << ": add its Debian package here";
    EXPECT_TRUE(installs(dockerfile, found->second)) << "the Dockerfile does not install " << found->second;
    EXPECT_TRUE(installs(setup, found->second)) << "Gradescope's setup.sh does not install " << found->second;
  }
}

TEST_F(PlatformsTest, GradescopeAutograderJudgesASimulatedSubmission) {
  const std::map<std::string, bool> hidden = cases_hidden();
  ASSERT_GT(hidden.size(), 1u);
  fs::path archive = work_ / "autograder.zip";
  JudgeRun exported = judge({"export", "gradescope", "draws", "--out", archive.string()});
  ASSERT_EQ(exported.status, 0) << exported.out << exported.err;

  fs::path autograder = work_ / "autograder";
  fs::path source = simulated_autograder(archive, autograder);
  for (const char* script : {"setup.sh", "run_autograder"}) {
    struct stat info {};
    ASSERT_EQ(stat((source / script).c_str(), &info), 0) << script;
    EXPECT_TRUE(info.st_mode & S_IXUSR) << script << " is not executable";
  }
  for (const char* part : {"judge/CMakeLists.txt", "judge/judge/src/cli/main.cpp", "judge/harness/CMakeLists.txt",
                           "judge/harness/problems/draws.cpp", "judge/harness/problems/draws.learner.hpp",
                           "judge/problems/draws/problem.yaml", "judge/solutions/draws/reference.hpp"})
    EXPECT_TRUE(fs::is_regular_file(source / part)) << part << " is not in the archive";
  EXPECT_NE(read_text(source / "setup.sh").find("apt-get install"), std::string::npos);
  for (const char* script : {"setup.sh", "run_autograder"}) {
    JudgeRun syntax = testing::run_program({"/bin/bash", "-n", (source / script).string()});
    EXPECT_EQ(syntax.status, 0) << script << ": " << syntax.err;
  }
  // The bundle is a whole source tree: CMake configures it as setup.sh
  // does (every file its CMakeLists name is there); building it is
  // setup.sh's work on Gradescope, done here by copying this build's judge.
  JudgeRun configured =
      testing::run_program({"cmake", "-S", (source / "judge").string(), "-B", (work_ / "bundle-build").string(), "-G",
                            "Ninja", "-DJUDGE_BUILD_TESTS=OFF"});
  EXPECT_EQ(configured.status, 0) << configured.out << configured.err;

  // A correct submission, in a subfolder as a GitHub upload has it.
  fs::create_directories(autograder / "submission" / "src");
  fs::copy_file(fixture("class/bo.hpp"), autograder / "submission" / "src" / "draws.hpp");
  JudgeRun graded = run_autograder(autograder);
  ASSERT_EQ(graded.status, 0) << graded.out << graded.err;
  json results = read_json(autograder / "results" / "results.json");
  ASSERT_EQ(results["tests"].size(), hidden.size()) << results;
  for (const json& test : results["tests"]) {
    std::string name = test["name"].get<std::string>().substr(std::string("draws: ").size());
    ASSERT_TRUE(hidden.count(name)) << test;
    EXPECT_EQ(test["score"], 1) << test;
    EXPECT_EQ(test["visibility"], hidden.at(name) ? "after_published" : "visible") << test;
  }

  // A known mistake: some cases lose their point and say why.
  fs::copy_file(draws_mistake(), autograder / "submission" / "src" / "draws.hpp", fs::copy_options::overwrite_existing);
  ASSERT_EQ(run_autograder(autograder).status, 0);
  results = read_json(autograder / "results" / "results.json");
  int score = 0;
  for (const json& test : results["tests"]) score += test["score"].get<int>();
  EXPECT_LT(score, static_cast<int>(hidden.size())) << results;
  EXPECT_NE(results.dump().find("wrong_answer"), std::string::npos) << results;

  // No file of that name: every case fails, the maximum score stays, and the output names the file.
  fs::remove_all(autograder / "submission" / "src");
  ASSERT_EQ(run_autograder(autograder).status, 0);
  results = read_json(autograder / "results" / "results.json");
  ASSERT_EQ(results["tests"].size(), hidden.size());
  for (const json& test : results["tests"]) EXPECT_EQ(test["score"], 0);
  EXPECT_NE(results["output"].get<std::string>().find("no draws.hpp in your submission"), std::string::npos) << results;
}

TEST_F(PlatformsTest, GradescopeHiddenVisibilityIsConfigurable) {
  const std::map<std::string, bool> hidden = cases_hidden();
  JudgeRun run = judge({"run", "draws", "--solution", draws_reference().string(), "--format", "gradescope",
                        "--hidden-visibility", "hidden"});
  ASSERT_EQ(run.status, 0) << run.err;
  const json results = json::parse(run.out);
  ASSERT_EQ(results["tests"].size(), hidden.size()) << results;
  for (const json& test : results["tests"]) {
    std::string name = test["name"].get<std::string>().substr(std::string("draws: ").size());
    EXPECT_EQ(test["visibility"], hidden.at(name) ? "hidden" : "visible") << test;
  }
  JudgeRun bad = judge({"run", "draws", "--reference", "--format", "json", "--hidden-visibility", "hidden"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("--hidden-visibility is for --format gradescope"), std::string::npos) << bad.err;
  // A run the judge cannot carry out still leaves a results file saying why.
  JudgeRun failed = judge({"run", "no_such_problem", "--reference", "--format", "gradescope"});
  EXPECT_EQ(failed.status, 2);
  const json failure = json::parse(failed.out, nullptr, false);
  ASSERT_FALSE(failure.is_discarded()) << failed.out;
  EXPECT_EQ(failure["score"], 0);
  EXPECT_NE(failure["output"].get<std::string>().find("unknown problem 'no_such_problem'"), std::string::npos)
      << failure;
  JudgeRun unknown = judge({"export", "gradescope", "no_such_problem", "--out", (work_ / "x.zip").string()});
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.err.find("unknown problem 'no_such_problem'"), std::string::npos) << unknown.err;
}

// ---- Exercism ------------------------------------------------------------

struct ExercismRun {
  JudgeRun run;
  json results;
};

ExercismRun exercism(const std::vector<std::string>& env, const fs::path& input, const fs::path& output) {
  ExercismRun result;
  std::vector<std::string> with_judge = env;
  with_judge.push_back(std::string("JUDGE_BINARY=") + JUDGE_BINARY);
  result.run = testing::run_program(
      {(fs::path(JUDGE_SOURCE_DIR) / "bin" / "run.sh").string(), "draws", input.string(), output.string()}, with_judge);
  result.results = read_json(output / "results.json");
  return result;
}

TEST_F(PlatformsTest, ExercismRunScriptWritesResultsAndExitsZero) {
  fs::path input = work_ / "solution", output = work_ / "output";
  fs::create_directories(input);
  auto submit = [&](const fs::path& file) {
    fs::copy_file(file, input / "draws.hpp", fs::copy_options::overwrite_existing);
    fs::remove_all(output);  // run.sh makes it
    return exercism(env(), input, output);
  };

  ExercismRun pass = submit(fixture("class/bo.hpp"));
  EXPECT_EQ(pass.run.status, 0) << pass.run.err;
  EXPECT_EQ(pass.results["version"], 3);
  EXPECT_EQ(pass.results["status"], "pass") << pass.results;
  ASSERT_FALSE(pass.results["tests"].empty());
  for (const json& test : pass.results["tests"]) {
    EXPECT_EQ(test["status"], "pass") << test;
    EXPECT_TRUE(test.contains("test_code")) << test;
  }

  ExercismRun fail = submit(draws_mistake());
  EXPECT_EQ(fail.run.status, 0) << "Exercism requires 0 on a failing solution";
  EXPECT_EQ(fail.results["status"], "fail") << fail.results;
  bool a_failure_says_why = false;
  for (const json& test : fail.results["tests"])
    a_failure_says_why =
        a_failure_says_why || (test["status"] == "fail" && !test["message"].get<std::string>().empty());
  EXPECT_TRUE(a_failure_says_why) << fail.results;

  ExercismRun broken = submit(fixture("class/di.cpp"));
  EXPECT_EQ(broken.run.status, 0);
  EXPECT_EQ(broken.results["status"], "error") << broken.results;
  EXPECT_NE(broken.results["message"].get<std::string>().find("error:"), std::string::npos) << broken.results;

  fs::remove(input / "draws.hpp");
  fs::remove_all(output);
  ExercismRun missing = exercism(env(), input, output);
  EXPECT_EQ(missing.run.status, 0);
  EXPECT_EQ(missing.results["status"], "error");
  EXPECT_NE(missing.results["message"].get<std::string>().find("no such file"), std::string::npos) << missing.results;
  EXPECT_EQ(missing.results["tests"], json::array());

  fs::copy_file(fixture("class/bo.hpp"), input / "draws.hpp");
  fs::remove_all(output);
  JudgeRun unknown = testing::run_program(
      {(fs::path(JUDGE_SOURCE_DIR) / "bin" / "run.sh").string(), "no-such-exercise", input.string(), output.string()},
      [&] {
        std::vector<std::string> with_judge = env();
        with_judge.push_back(std::string("JUDGE_BINARY=") + JUDGE_BINARY);
        return with_judge;
      }());
  EXPECT_EQ(unknown.status, 0);
  json results = read_json(output / "results.json");
  EXPECT_EQ(results["status"], "error");
  EXPECT_NE(results["message"].get<std::string>().find("unknown problem 'no_such_exercise'"), std::string::npos)
      << results;
}

// Exercism's slugs are kebab-case; the problems' and files' names snake_case.
TEST_F(PlatformsTest, ExercismKebabSlugFindsTheSnakeCaseProblem) {
  fs::rename(root_ / "problems" / "draws", root_ / "problems" / "soft_draws");
  fs::rename(root_ / "solutions" / "draws", root_ / "solutions" / "soft_draws");
  fs::rename(root_ / "harness" / "problems" / "draws.cpp", root_ / "harness" / "problems" / "soft_draws.cpp");
  fs::rename(root_ / "harness" / "problems" / "draws.learner.hpp",
             root_ / "harness" / "problems" / "soft_draws.learner.hpp");
  fs::path input = work_ / "solution", output = work_ / "output";
  fs::create_directories(input);
  fs::copy_file(fixture("class/bo.hpp"), input / "soft_draws.hpp");
  std::vector<std::string> with_judge = env();
  with_judge.push_back(std::string("JUDGE_BINARY=") + JUDGE_BINARY);
  JudgeRun run = testing::run_program(
      {(fs::path(JUDGE_SOURCE_DIR) / "bin" / "run.sh").string(), "soft-draws", input.string(), output.string()},
      with_judge);
  EXPECT_EQ(run.status, 0) << run.err;
  json results = read_json(output / "results.json");
  EXPECT_EQ(results["status"], "pass") << results;
}

TEST_F(PlatformsTest, ExercismFormatJudgesOneProblemPerRun) {
  JudgeRun all = judge({"run", "--all", "--reference", "--format", "exercism"});
  EXPECT_EQ(all.status, 2);
  EXPECT_NE(all.err.find("one problem per run"), std::string::npos) << all.err;
}

// ---- Shards ----------------------------------------------------------------

TEST(Shards, SplitByNameIsStableAndWithinRange) {
  std::vector<std::string> names;
  for (int i = 0; i < 200; ++i) names.push_back("student" + std::to_string(i) + ".hpp");
  std::vector<int> per_share(7, 0);
  for (const std::string& name : names) {
    unsigned share = shard_of_submission(name, 7);
    ASSERT_LT(share, 7u);
    EXPECT_EQ(share, shard_of_submission(name, 7)) << name;
    ++per_share[share];
  }
  for (int count : per_share) EXPECT_GT(count, 10) << "a share of 200 names in 7 is far from even";
  EXPECT_EQ(shard_of_submission("anything.hpp", 1), 0u);

  GradeOptions options;
  parse_shard("3/8", &options);
  EXPECT_EQ(options.shard_index, 3u);
  EXPECT_EQ(options.shard_count, 8u);
  for (const char* bad : {"0/3", "4/3", "3", "1/0", "a/b", "1/2x", "-1/2"})
    EXPECT_THROW(parse_shard(bad, &options), JudgeFault) << bad;
}

// The summary with wall times left out, and the seal made over them: the
// one thing two runs of the same class do not share.
json without_seconds(json summary) {
  for (json& row : summary["submissions"]) row.erase("seconds");
  summary.erase("hmac");
  return summary;
}
std::string csv_without_seconds(const std::string& csv) {
  std::string out;
  std::istringstream lines(csv);
  for (std::string line; std::getline(lines, line);) {
    // submission,verdict,passed,total,seconds,...: the submissions here need no quoting.
    std::size_t at = 0;
    for (int comma = 0; comma < 4; ++comma) at = line.find(',', at) + 1;
    out += line.substr(0, at) + line.substr(line.find(',', at)) + "\n";
  }
  return out;
}

TEST_F(PlatformsTest, MergingShardRunsEqualsOneRun) {
  fs::path submissions = work_ / "class";
  fs::copy(fixture("class"), submissions);
  fs::copy_file(draws_reference(), submissions / "ada.hpp");
  fs::copy_file(draws_mistake(), submissions / "cy.hpp");
  const std::vector<std::string> trust = {"--trust-submissions", "--jobs", "2"};
  auto grade = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"grade", "draws", submissions.string()});
    args.insert(args.end(), trust.begin(), trust.end());
    return judge(args);
  };

  JudgeRun whole = grade({"--out", (work_ / "whole").string()});
  ASSERT_EQ(whole.status, 0) << whole.out << whole.err;
  const json one_run = read_json(work_ / "whole" / "summary.json");
  ASSERT_EQ(one_run["submissions"].size(), 6u) << one_run;
  std::set<std::string> verdicts;
  for (const json& row : one_run["submissions"]) verdicts.insert(row["verdict"].get<std::string>());
  EXPECT_GE(verdicts.size(), 3u) << "the class should not be all alike: " << one_run;

  const unsigned shards = 3;
  std::vector<std::string> merge = {"grade", "--merge"};
  std::set<std::string> seen;
  for (unsigned k = 1; k <= shards; ++k) {
    fs::path out = work_ / ("shard" + std::to_string(k));
    JudgeRun shard = grade({"--shard", std::to_string(k) + "/" + std::to_string(shards), "--out", out.string()});
    ASSERT_EQ(shard.status, 0) << shard.out << shard.err;
    json summary = read_json(out / "summary.json");
    EXPECT_EQ(summary["shard"]["index"], k);
    for (const json& row : summary["submissions"]) {
      std::string name = row["submission"];
      EXPECT_EQ(shard_of_submission(name, shards), k - 1) << name;
      EXPECT_TRUE(seen.insert(name).second) << name << " graded by two shards";
    }
    merge.push_back(out.string());
  }
  EXPECT_EQ(seen.size(), 6u);

  std::vector<std::string> merged_args = merge;
  merged_args.insert(merged_args.end(), {"--out", (work_ / "merged").string()});
  JudgeRun merged = judge(merged_args);
  ASSERT_EQ(merged.status, 0) << merged.out << merged.err;
  EXPECT_EQ(without_seconds(read_json(work_ / "merged" / "summary.json")), without_seconds(one_run));
  EXPECT_EQ(csv_without_seconds(read_text(work_ / "merged" / "summary.csv")),
            csv_without_seconds(read_text(work_ / "whole" / "summary.csv")));
  std::set<std::string> whole_results, merged_results;
  for (const auto& entry : fs::directory_iterator(work_ / "whole" / "results"))
    whole_results.insert(entry.path().filename());
  for (const auto& entry : fs::directory_iterator(work_ / "merged" / "results"))
    merged_results.insert(entry.path().filename());
  EXPECT_EQ(merged_results, whole_results);

  // A shard left out, or one given twice, is refused, naming it.
  std::vector<std::string> short_merge(merge.begin(), merge.end() - 1);
  short_merge.insert(short_merge.end(), {"--out", (work_ / "short").string()});
  JudgeRun incomplete = judge(short_merge);
  EXPECT_EQ(incomplete.status, 2);
  EXPECT_NE(incomplete.err.find("missing shard(s) 3/3"), std::string::npos) << incomplete.err;
  std::vector<std::string> twice = merge;
  twice.insert(twice.end(), {merge.back(), "--out", (work_ / "twice").string()});
  JudgeRun doubled = judge(twice);
  EXPECT_EQ(doubled.status, 2);
  EXPECT_NE(doubled.err.find("given twice"), std::string::npos) << doubled.err;
}

TEST_F(PlatformsTest, AMergeRefusesWhatThisJudgesKeyDidNotSeal) {
  fs::path submissions = work_ / "class";
  fs::copy(fixture("class"), submissions);
  fs::copy_file(draws_reference(), submissions / "ada.hpp");
  std::vector<std::string> merge = {"grade", "--merge"};
  for (unsigned k = 1; k <= 2; ++k) {
    fs::path out = work_ / ("shard" + std::to_string(k));
    JudgeRun shard = judge({"grade", "draws", submissions.string(), "--trust-submissions", "--shard",
                            std::to_string(k) + "/2", "--out", out.string()});
    ASSERT_EQ(shard.status, 0) << shard.out << shard.err;
    merge.push_back(out.string());
  }
  merge.insert(merge.end(), {"--out", (work_ / "merged").string()});
  const fs::path summary = work_ / "shard1" / "summary.json";
  const std::string sealed = read_text(summary);
  json forged = json::parse(sealed);
  bool changed = false;
  for (json& row : forged["submissions"])
    if (!changed && row["verdict"] != "accepted") {
      row["verdict"] = "accepted";  // its seal kept
      changed = true;
    }
  ASSERT_TRUE(changed) << "the fixture class has a failing submission in each share: " << sealed;
  std::ofstream(summary, std::ios::trunc) << forged.dump(2);
  const std::string rest =
      ": its seal does not verify: edited, planted, or sealed with another key (a merge takes only what this "
      "judge's key, " +
      fs::proximate(build_dir() / "runners" / "grade-key", JUDGE_SOURCE_DIR).string() +
      ", sealed; shards judged where the cache is not shared need one key file: JUDGE_GRADE_KEY_FILE)\n";
  auto shown = [](const fs::path& path) { return fs::proximate(path, JUDGE_SOURCE_DIR).string(); };
  JudgeRun edited = judge(merge);
  EXPECT_EQ(edited.status, 2);
  EXPECT_EQ(edited.err, "judge: grade --merge: refusing " + shown(summary) + rest);
  EXPECT_FALSE(fs::exists(work_ / "merged")) << "nothing is written from a refused merge";
  std::ofstream(summary, std::ios::trunc) << sealed;

  // A result file edited in the other shard: refused, naming it.
  fs::path result;
  for (const auto& entry : fs::directory_iterator(work_ / "shard2" / "results")) result = entry.path();
  ASSERT_FALSE(result.empty());
  json row = json::parse(read_text(result));
  row["message"] = "forged";
  std::ofstream(result, std::ios::trunc) << row.dump(2);
  JudgeRun planted = judge(merge);
  EXPECT_EQ(planted.status, 2);
  EXPECT_EQ(planted.err, "judge: grade --merge: refusing " + shown(result) + rest);
  EXPECT_FALSE(fs::exists(work_ / "merged"));
}

}  // namespace
}  // namespace judge
