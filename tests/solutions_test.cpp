// Every problem's solutions, as solutions/<slug>/solutions.yaml lists them:
// the reference and each accepted/ file must be accepted, each wrong/ file
// must get its stated verdict, and so must each hint_tests/ file. One test
// per file, found when the tests are listed, so a new problem joins without
// touching this file.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "check/registry.hpp"
#include "judging/judging.hpp"
#include "package/layout.hpp"
#include "package/solutions_index.hpp"
#include "skip_here.hpp"
#include "util/errors.hpp"
#include "util/paths.hpp"
#include "util/text.hpp"

namespace judge {
namespace {
namespace fs = std::filesystem;

const Paths& source_paths() {
  static const Paths paths = Paths::under_root(JUDGE_SOURCE_DIR);
  return paths;
}

struct SolutionCase {
  std::string name;  // the test's name: <slug>_<kind>_<file stem>
  std::string slug;
  std::string file;     // relative to solutions/<slug>
  std::string verdict;  // what it must get
  std::string problem;  // when set: the index itself is wrong, and this says how
  bool skip = false;    // a problem without solutions.yaml yet
};

void PrintTo(const SolutionCase& c, std::ostream* out) { *out << "solutions/" << c.slug << "/" << c.file; }

std::string test_name(const std::string& text) {
  std::string name;
  for (char c : text) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

// The case of one listed solution file (absolute), named after its path.
SolutionCase listed_case(const std::string& slug, const fs::path& dir, const std::string& file, Verdict verdict) {
  std::string relative = fs::path(file).lexically_relative(dir).string();
  return {test_name(slug + "_" + fs::path(relative).replace_extension().string()), slug, relative,
          verdict_name(verdict), ""};
}

// Reads one problem's index; a mistake in it becomes a failing case naming it.
void add_problem(const std::string& slug, std::vector<SolutionCase>* cases) {
  const Package package = package_of(source_paths(), slug);
  const fs::path dir = package.solutions_dir;
  if (!fs::is_regular_file(package.solutions_index)) {
    cases->push_back({test_name(slug + "_solutions_yaml"), slug, "solutions.yaml", "", "", true});
    return;
  }
  std::optional<SolutionsIndex> index;
  try {
    index = load_solutions_index(package);
  } catch (const SpecError& error) {
    cases->push_back({test_name(slug + "_solutions_yaml"), slug, "solutions.yaml", "", error.message});
    return;
  }
  cases->push_back({test_name(slug + "_reference"), slug, fs::path(index->reference).lexically_relative(dir).string(),
                    "accepted", ""});
  std::set<std::string> listed;
  for (const std::vector<KnownSolution>* list : {&index->accepted, &index->wrong, &index->hint_tests})
    for (const KnownSolution& solution : *list) {
      cases->push_back(listed_case(slug, dir, solution.file, solution.verdict));
      listed.insert(cases->back().file);
    }
  // A solution on disk that the index forgets would never be judged.
  for (const char* kind : {"accepted", "wrong", "hint_tests"}) {
    if (!fs::is_directory(dir / kind)) continue;
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(dir / kind))
      if (entry.path().extension() == ".hpp") files.push_back((fs::path(kind) / entry.path().filename()).string());
    std::sort(files.begin(), files.end());
    for (const std::string& file : files)
      if (!listed.count(file))
        cases->push_back(
            {test_name(slug + "_" + fs::path(file).replace_extension().string()), slug, file, "",
             "solutions/" + slug + "/" + file + " is not listed in " + display_path(package.solutions_index)});
  }
}

std::vector<SolutionCase> all_solutions() {
  std::vector<SolutionCase> cases;
  for (const std::string& slug : problem_slugs(source_paths().problems_dir)) add_problem(slug, &cases);
  return cases;
}

// Loads each problem once per process; a broken spec fails every case of it.
const Problem& problem_for(const std::string& slug, std::string* error) {
  static std::map<std::string, Problem> problems;
  static std::map<std::string, std::string> errors;
  if (!problems.count(slug) && !errors.count(slug)) {
    try {
      problems[slug] = load_problem(package_of(source_paths(), slug), checker_case_rules());
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
  if (c.skip) JUDGE_SKIP() << "problems/" << c.slug << " has no solutions/" << c.slug << "/solutions.yaml yet";
  if (!c.problem.empty()) FAIL() << c.problem;
  std::string spec_error;
  const Problem& problem = problem_for(c.slug, &spec_error);
  if (!spec_error.empty()) FAIL() << "problems/" << c.slug << " does not load: " << spec_error;

  const std::string display = "solutions/" + c.slug + "/" + c.file;
  JudgeRequest request;
  request.solution_file = (fs::path(source_paths().solutions_dir) / c.slug / c.file).string();
  request.display_name = display;
  // Verdicts only: `judge validate` (run by bin/test) checks the hints each
  // known-wrong solution and hint test gets.
  request.hints = false;
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
