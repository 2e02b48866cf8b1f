// The judge's layering: judge/src is in folders by stage, and a file may
// include only files of its own stage or of the stages before it in
// kStages (docs/architecture.md). This reads every #include under
// judge/src and fails on one that points up the list, or on a quoted
// include that names no stage.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace judge {
namespace {
namespace fs = std::filesystem;

// The stages in data-flow order: each may use only those before it.
const std::vector<std::string> kStages = {"util",  "spec",    "sandbox", "build", "run",
                                          "check", "judging", "report",  "cli"};

int stage_rank(const std::string& stage) {
  auto found = std::find(kStages.begin(), kStages.end(), stage);
  return found == kStages.end() ? -1 : static_cast<int>(found - kStages.begin());
}

// What is wrong with the quoted includes of `file` (a path relative to
// judge/src), one line per problem; empty when nothing is.
std::vector<std::string> layering_problems(const std::string& file, const std::string& content) {
  std::vector<std::string> problems;
  fs::path path(file);
  std::string stage = path.begin()->string();
  int rank = stage_rank(stage);
  if (rank < 0 || std::distance(path.begin(), path.end()) < 2)
    return {file + ": not in a stage folder (" + kStages.front() + ", ..., " + kStages.back() + ")"};
  static const std::regex kInclude(R"(^\s*#\s*include\s*"([^"]+)\")");
  std::istringstream lines(content);
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    std::smatch match;
    if (!std::regex_search(line, match, kInclude)) continue;
    std::string included = match[1];
    std::string target = fs::path(included).begin()->string();
    int target_rank = stage_rank(target);
    std::string where = file + ":" + std::to_string(number) + ": ";
    if (target_rank < 0 || included.find('/') == std::string::npos)
      problems.push_back(where + "\"" + included + "\" names no stage; include it as \"STAGE/file.hpp\"");
    else if (target_rank > rank)
      problems.push_back(where + stage + " includes \"" + included + "\", a later stage");
  }
  return problems;
}

TEST(Layering, NoIncludeUnderJudgeSrcPointsUpTheStages) {
  const fs::path root = fs::path(JUDGE_SOURCE_DIR) / "judge" / "src";
  std::vector<std::string> problems;
  int files = 0;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) continue;
    std::string extension = entry.path().extension().string();
    if (extension != ".hpp" && extension != ".cpp") continue;
    ++files;
    std::ifstream in(entry.path());
    std::stringstream content;
    content << in.rdbuf();
    for (const std::string& problem : layering_problems(fs::relative(entry.path(), root).string(), content.str()))
      problems.push_back(problem);
  }
  EXPECT_GT(files, 20) << "judge/src was not found under " << root;
  std::string listed;
  for (const std::string& problem : problems) listed += problem + "\n";
  EXPECT_TRUE(problems.empty()) << listed;
}

// The rule itself, on made-up files, so the test above can fail.
TEST(Layering, AnIncludeOfALaterStageIsReported) {
  EXPECT_EQ(layering_problems("spec/problem.cpp", "#include \"check/registry.hpp\"\n"),
            std::vector<std::string>{"spec/problem.cpp:1: spec includes \"check/registry.hpp\", a later stage"});
  EXPECT_EQ(layering_problems("util/text.cpp", "// x\n  #  include \"cli/command.hpp\"\n"),
            std::vector<std::string>{"util/text.cpp:2: util includes \"cli/command.hpp\", a later stage"});
}

TEST(Layering, TheSameOrAnEarlierStageIsAllowed) {
  EXPECT_TRUE(
      layering_problems("check/values.cpp",
                        "#include \"check/checker.hpp\"\n#include \"spec/problem.hpp\"\n#include <fmt/format.h>\n")
          .empty());
  EXPECT_TRUE(
      layering_problems("cli/main.cpp", "#include \"util/paths.hpp\"\n#include \"report/formats.hpp\"\n").empty());
}

TEST(Layering, AnIncludeThatNamesNoStageIsReported) {
  EXPECT_EQ(
      layering_problems("run/runner.cpp", "#include \"runner.hpp\"\n"),
      std::vector<std::string>{"run/runner.cpp:1: \"runner.hpp\" names no stage; include it as \"STAGE/file.hpp\""});
  EXPECT_EQ(layering_problems("main.cpp", "").size(), 1u);
}

}  // namespace
}  // namespace judge
