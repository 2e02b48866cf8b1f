// The judge's layering: judge/src is in folders, and each folder may
// include only itself and the folders its entry in kMayInclude names, as
// LLVM's libraries name the libraries they depend on. A new arrow between
// folders is a line changed here, visible in review. This reads every
// #include under judge/src and fails on one the list does not allow, on a
// quoted include that names no folder, on an allowance no include uses,
// on a cycle in the list, and on docs/architecture.md's table saying
// something else.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace judge {
namespace {
namespace fs = std::filesystem;

using Allowances = std::map<std::string, std::set<std::string>>;

// Each folder of judge/src and the folders it may include, from the stages
// of judging (util up to report) to the services (practice, authoring,
// course, web) and the command line over them.
const Allowances kMayInclude = {
    {"util", {}},
    {"package", {"util"}},
    {"sandbox", {"util", "package"}},
    {"compile", {"util", "package", "sandbox"}},
    {"run", {"package", "sandbox"}},
    {"check", {"util", "package", "sandbox", "run"}},
    {"judging", {"util", "package", "sandbox", "compile", "run", "check"}},
    {"report", {"util", "package", "check", "judging"}},
    {"practice", {"util", "package", "sandbox", "judging", "report"}},
    {"authoring", {"util", "package", "compile", "check", "judging"}},
    {"course", {"util", "package", "sandbox", "compile", "judging", "report"}},
    {"web", {"util", "package", "sandbox", "judging", "report", "practice", "lab"}},
    {"lab", {"util", "package", "run", "judging", "practice"}},
    {"cli",
     {"util", "package", "sandbox", "compile", "check", "judging", "report", "practice", "authoring", "course", "web",
      "lab"}},
};

std::string folder_of(const std::string& path) { return fs::path(path).begin()->string(); }

// The quoted includes of a file: (line number, included path).
std::vector<std::pair<int, std::string>> quoted_includes(const std::string& content) {
  static const std::regex kInclude(R"(^\s*#\s*include\s*"([^"]+)\")");
  std::vector<std::pair<int, std::string>> found;
  std::istringstream lines(content);
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    std::smatch match;
    if (std::regex_search(line, match, kInclude)) found.emplace_back(number, match[1]);
  }
  return found;
}

// What is wrong with the quoted includes of `file` (a path relative to
// judge/src), one line per problem; empty when nothing is.
std::vector<std::string> layering_problems(const std::string& file, const std::string& content,
                                           const Allowances& allowed = kMayInclude) {
  const std::string folder = folder_of(file);
  const fs::path path(file);
  auto entry = allowed.find(folder);
  if (entry == allowed.end() || std::distance(path.begin(), path.end()) < 2)
    return {file + ": not in a folder the layering knows (add the folder and what it may include to kMayInclude)"};
  std::vector<std::string> problems;
  for (const auto& [number, included] : quoted_includes(content)) {
    const std::string target = folder_of(included);
    const std::string where = file + ":" + std::to_string(number) + ": ";
    if (included.find('/') == std::string::npos || !allowed.count(target))
      problems.push_back(where + "\"" + included + "\" names no folder; include it as \"FOLDER/file.hpp\"");
    else if (target != folder && !entry->second.count(target))
      problems.push_back(where + folder + " includes \"" + included + "\", but " + folder + " may include only " +
                         (entry->second.empty() ? std::string("itself") : [&] {
                           std::string names;
                           for (const std::string& name : entry->second) names += (names.empty() ? "" : ", ") + name;
                           return names;
                         }()));
  }
  return problems;
}

// A cycle in the allowances, as "a -> b -> a"; empty when there is none.
std::string cycle_in(const Allowances& allowed) {
  std::map<std::string, int> state;  // 0 unseen, 1 on the path, 2 done
  std::vector<std::string> path;
  std::string cycle;
  std::function<bool(const std::string&)> visit = [&](const std::string& folder) {
    if (state[folder] == 2) return false;
    if (state[folder] == 1) {
      for (auto it = std::find(path.begin(), path.end(), folder); it != path.end(); ++it) cycle += *it + " -> ";
      cycle += folder;
      return true;
    }
    state[folder] = 1;
    path.push_back(folder);
    auto entry = allowed.find(folder);
    if (entry != allowed.end())
      for (const std::string& next : entry->second)
        if (visit(next)) return true;
    path.pop_back();
    state[folder] = 2;
    return false;
  };
  for (const auto& [folder, unused] : allowed)
    if (visit(folder)) return cycle;
  return "";
}

std::string read_whole(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream content;
  content << in.rdbuf();
  return content.str();
}

std::string lines_of(const std::vector<std::string>& problems) {
  std::string listed;
  for (const std::string& problem : problems) listed += problem + "\n";
  return listed;
}

TEST(Layering, EveryIncludeUnderJudgeSrcIsAllowedAndEveryAllowanceIsUsed) {
  const fs::path root = fs::path(JUDGE_SOURCE_DIR) / "judge" / "src";
  std::vector<std::string> problems;
  Allowances used;
  int files = 0;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) continue;
    std::string extension = entry.path().extension().string();
    if (extension != ".hpp" && extension != ".cpp") continue;
    ++files;
    const std::string file = fs::relative(entry.path(), root).string();
    const std::string content = read_whole(entry.path());
    for (const std::string& problem : layering_problems(file, content)) problems.push_back(problem);
    for (const auto& include : quoted_includes(content))
      if (folder_of(include.second) != folder_of(file)) used[folder_of(file)].insert(folder_of(include.second));
  }
  EXPECT_GT(files, 20) << "judge/src was not found under " << root;
  EXPECT_TRUE(problems.empty()) << lines_of(problems);
  // An allowance nothing uses is an arrow nobody decided to keep.
  for (const auto& [folder, targets] : kMayInclude)
    for (const std::string& target : targets)
      EXPECT_TRUE(used[folder].count(target))
          << folder << " may include " << target << ", but no file does: take it out of kMayInclude";
}

TEST(Layering, TheAllowancesHaveNoCycle) {
  EXPECT_EQ(cycle_in(kMayInclude), "");
  EXPECT_EQ(cycle_in({{"a", {"b"}}, {"b", {"c"}}, {"c", {"a"}}}), "a -> b -> c -> a");
}

// docs/architecture.md's table of folders says what each may include, in
// a column of its own; it must say what kMayInclude says.
TEST(Layering, TheArchitectureDocumentShowsTheAllowances) {
  const std::string doc = read_whole(fs::path(JUDGE_SOURCE_DIR) / "docs" / "architecture.md");
  static const std::regex kRow(R"(\n\| `([a-z]+)/` \| ([^|]*) \|)");
  Allowances documented;
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), kRow); it != std::sregex_iterator(); ++it) {
    std::set<std::string>& targets = documented[(*it)[1].str()];
    static const std::regex kName(R"(`([a-z]+)/`)");
    const std::string cell = (*it)[2].str();
    for (auto name = std::sregex_iterator(cell.begin(), cell.end(), kName); name != std::sregex_iterator(); ++name)
      targets.insert((*name)[1].str());
  }
  EXPECT_EQ(documented, kMayInclude) << "docs/architecture.md's table of folders, column \"may include\"";
}

// The rule itself, on made-up files, so the tests above can fail.
TEST(Layering, AnIncludeTheListDoesNotAllowIsReported) {
  EXPECT_EQ(layering_problems("package/problem.cpp", "#include \"check/registry.hpp\"\n"),
            std::vector<std::string>{
                "package/problem.cpp:1: package includes \"check/registry.hpp\", but package may include only util"});
  EXPECT_EQ(
      layering_problems("util/text.cpp", "// x\n  #  include \"cli/command.hpp\"\n"),
      std::vector<std::string>{"util/text.cpp:2: util includes \"cli/command.hpp\", but util may include only itself"});
  // A service may not include another unless the list says so.
  EXPECT_EQ(layering_problems("course/grade.cpp", "#include \"web/api.hpp\"\n").size(), 1u);
}

TEST(Layering, ItselfAndWhatTheListNamesAreAllowed) {
  EXPECT_TRUE(
      layering_problems("check/values.cpp",
                        "#include \"check/checker.hpp\"\n#include \"package/problem.hpp\"\n#include <fmt/format.h>\n")
          .empty());
  EXPECT_TRUE(
      layering_problems("cli/main.cpp", "#include \"util/paths.hpp\"\n#include \"report/formats.hpp\"\n").empty());
}

TEST(Layering, AnIncludeThatNamesNoFolderIsReported) {
  EXPECT_EQ(
      layering_problems("run/runner.cpp", "#include \"runner.hpp\"\n"),
      std::vector<std::string>{"run/runner.cpp:1: \"runner.hpp\" names no folder; include it as \"FOLDER/file.hpp\""});
  EXPECT_EQ(layering_problems("main.cpp", "").size(), 1u);
  EXPECT_EQ(layering_problems("newroom/x.cpp", "").size(), 1u);
}

}  // namespace
}  // namespace judge
