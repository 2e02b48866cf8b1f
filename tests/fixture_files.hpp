// Fixture solutions as the judge wants them: one self-contained file. A
// fixture may share code with its neighbours through `#include "FILE"`;
// the judge compiles a solution on its own, so the copy judged has each
// such include replaced by the file's text.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

namespace judge::testing {

// `text` with every line `#include "NAME"` replaced by the content of
// `dir`/NAME (recursively), for NAME a relative path to a fixture file (an
// absolute one, such as /proc/kmsg in a fixture that attacks the build, is
// left as it is and never opened).
inline std::string inline_sibling_includes(const std::string& text, const std::filesystem::path& dir) {
  static const std::regex kInclude(R"re(^\s*#\s*include\s*"([^"]+)"\s*$)re");
  std::istringstream lines(text);
  std::string out;
  for (std::string line; std::getline(lines, line);) {
    std::smatch match;
    std::filesystem::path name = std::regex_match(line, match, kInclude) ? match[1].str() : "";
    std::filesystem::path included = dir / name;
    bool fixture = !name.empty() && name.is_relative() && (name.extension() == ".hpp" || name.extension() == ".inc");
    if (!fixture || !std::filesystem::is_regular_file(included)) {
      out += line + "\n";
      continue;
    }
    std::ifstream in(included);
    std::stringstream content;
    content << in.rdbuf();
    out += inline_sibling_includes(content.str(), included.parent_path());
  }
  return out;
}

// The fixture tests/fixtures/RELATIVE, self-contained: the file itself
// when it includes no neighbour, else a copy in a temporary directory.
inline std::string fixture_file(const std::string& relative) {
  namespace fs = std::filesystem;
  fs::path original = fs::path(JUDGE_TESTS_DIR) / "fixtures" / relative;
  std::ifstream in(original);
  std::stringstream content;
  content << in.rdbuf();
  std::string text = inline_sibling_includes(content.str(), original.parent_path());
  if (text == content.str()) return original.string();
  fs::path dir = fs::temp_directory_path() / ("judge-fixtures-" + std::to_string(getpid()));
  fs::create_directories(dir / original.parent_path().filename());
  fs::path copy = dir / original.parent_path().filename() / original.filename();
  std::ofstream(copy) << text;
  return copy.string();
}

}  // namespace judge::testing
