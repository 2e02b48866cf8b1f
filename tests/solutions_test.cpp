// Every problem's solutions, as solutions/<slug>/solutions.yaml lists them:
// the reference and each accepted/ file must be accepted, each wrong/ file
// must get its stated verdict. One test per file, found when the tests are
// listed, so a new problem joins without touching this file.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "checks.hpp"
#include "judging.hpp"
#include "paths.hpp"
#include "spec.hpp"

namespace judge {
namespace {
namespace fs = std::filesystem;

const Paths& source_paths() {
  static const Paths paths = Paths::under_root(JUDGE_SOURCE_DIR);
  return paths;
}

struct SolutionCase {
  std::string name;      // the test's name: <slug>_<kind>_<file stem>
  std::string slug;
  std::string file;      // relative to solutions/<slug>
  std::string verdict;   // what it must get
  std::string problem;   // when set: the index itself is wrong, and this says how
  bool skip = false;     // a problem without solutions.yaml yet
};

void PrintTo(const SolutionCase& c, std::ostream* out) { *out << "solutions/" << c.slug << "/" << c.file; }

std::string test_name(const std::string& text) {
  std::string name;
  for (char c : text) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

const std::set<std::string> kVerdicts = {"wrong_answer", "runtime_error", "time_limit_exceeded",
                                         "memory_limit_exceeded", "compile_error"};

// Reads one problem's index; a mistake in it becomes a failing case naming it.
void add_problem(const std::string& slug, std::vector<SolutionCase>* cases) {
  fs::path dir = fs::path(source_paths().solutions_dir) / slug;
  fs::path index = dir / "solutions.yaml";
  const std::string index_name = "solutions/" + slug + "/solutions.yaml";
  auto index_problem = [&](const std::string& what) {
    cases->push_back({test_name(slug + "_solutions_yaml"), slug, "solutions.yaml", "", index_name + ": " + what});
  };
  if (!fs::is_regular_file(index)) {
    cases->push_back({test_name(slug + "_solutions_yaml"), slug, "solutions.yaml", "", "", true});
    return;
  }
  YAML::Node root;
  try {
    root = YAML::LoadFile(index.string());
  } catch (const YAML::Exception& e) {
    return index_problem(e.what());
  }
  if (!root.IsMap()) return index_problem("expected a mapping with reference, accepted and wrong");
  for (const auto& entry : root) {
    std::string key = entry.first.Scalar();
    if (key != "reference" && key != "accepted" && key != "wrong")
      return index_problem("unknown key '" + key + "'; expected reference, accepted, wrong");
  }
  std::set<std::string> listed;
  std::string reference = root["reference"] ? root["reference"].Scalar() : "reference.hpp";
  cases->push_back({test_name(slug + "_reference"), slug, reference, "accepted", ""});
  for (const char* kind : {"accepted", "wrong"}) {
    YAML::Node list = root[kind];
    if (!list) continue;
    if (!list.IsSequence()) return index_problem(std::string("'") + kind + "' must be a list");
    for (const YAML::Node& item : list) {
      std::string where = std::string(kind) + " entry at line " + std::to_string(item.Mark().line + 1);
      if (!item.IsMap() || !item["file"]) return index_problem(where + " has no 'file'");
      for (const auto& entry : item) {
        std::string key = entry.first.Scalar();
        bool known = key == "file" || (std::string(kind) == "accepted" ? key == "note" : key == "verdict" || key == "mistake");
        if (!known) return index_problem(where + ": unknown key '" + key + "'");
      }
      std::string file = item["file"].Scalar();
      std::string verdict = "accepted";
      if (std::string(kind) == "wrong") {
        verdict = item["verdict"] ? item["verdict"].Scalar() : "";
        if (!kVerdicts.count(verdict))
          return index_problem(where + " (" + file + "): verdict '" + verdict +
                               "' is not one of wrong_answer, runtime_error, time_limit_exceeded, "
                               "memory_limit_exceeded, compile_error");
      }
      listed.insert(fs::path(file).lexically_normal().string());
      cases->push_back({test_name(slug + "_" + fs::path(file).replace_extension().string()), slug, file, verdict, ""});
    }
  }
  // A solution on disk that the index forgets would never be judged.
  for (const char* kind : {"accepted", "wrong"}) {
    if (!fs::is_directory(dir / kind)) continue;
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(dir / kind))
      if (entry.path().extension() == ".hpp") files.push_back((fs::path(kind) / entry.path().filename()).string());
    std::sort(files.begin(), files.end());
    for (const std::string& file : files)
      if (!listed.count(file))
        cases->push_back({test_name(slug + "_" + fs::path(file).replace_extension().string()), slug, file, "",
                          "solutions/" + slug + "/" + file + " is not listed in " + index_name});
  }
}

std::vector<SolutionCase> all_solutions() {
  std::vector<SolutionCase> cases;
  std::vector<std::string> slugs;
  for (const auto& entry : fs::directory_iterator(source_paths().problems_dir))
    if (fs::is_regular_file(entry.path() / "problem.yaml")) slugs.push_back(entry.path().filename().string());
  std::sort(slugs.begin(), slugs.end());
  for (const std::string& slug : slugs) add_problem(slug, &cases);
  return cases;
}

// Loads each problem once per process; a broken spec fails every case of it.
const Problem& problem_for(const std::string& slug, std::string* error) {
  static std::map<std::string, Problem> problems;
  static std::map<std::string, std::string> errors;
  if (!problems.count(slug) && !errors.count(slug)) {
    try {
      problems[slug] = load_problem((fs::path(source_paths().problems_dir) / slug).string());
    } catch (const SpecError& e) {
      errors[slug] = e.message;
    }
  }
  static const Problem kNone;
  if (errors.count(slug)) {
    *error = errors[slug];
    return kNone;
  }
  return problems[slug];
}

class Solution : public ::testing::TestWithParam<SolutionCase> {};

TEST_P(Solution, GetsItsStatedVerdict) {
  const SolutionCase& c = GetParam();
  if (c.skip) GTEST_SKIP() << "problems/" << c.slug << " has no solutions/" << c.slug << "/solutions.yaml yet";
  if (!c.problem.empty()) FAIL() << c.problem;
  std::string spec_error;
  const Problem& problem = problem_for(c.slug, &spec_error);
  if (!spec_error.empty()) FAIL() << "problems/" << c.slug << " does not load: " << spec_error;

  const std::string display = "solutions/" + c.slug + "/" + c.file;
  JudgeRequest request;
  request.solution_file = (fs::path(source_paths().solutions_dir) / c.slug / c.file).string();
  request.display_name = display;
  ProblemResult result;
  try {
    result = judge_solution(source_paths(), problem, request);
  } catch (const JudgeFault& fault) {
    FAIL() << display << ": the judge could not judge it: " << fault.message;
  }
  std::string why = result.message;
  for (const TestResult& test : result.tests)
    if (test.verdict != Verdict::kAccepted) {
      why = "first failing case '" + test.name + "' (" + verdict_name(test.verdict) + "): " + test.message;
      break;
    }
  EXPECT_EQ(verdict_name(result.verdict), c.verdict) << display << "\n" << why;
}

INSTANTIATE_TEST_SUITE_P(Problems, Solution, ::testing::ValuesIn(all_solutions()),
                         [](const ::testing::TestParamInfo<SolutionCase>& info) { return info.param.name; });

}  // namespace
}  // namespace judge
