// Filtering compiler diagnostics down to the learner's own mistakes.
#include "compile/diagnostics.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <regex>
#include <sstream>
#include <vector>

namespace judge {
namespace {
constexpr std::size_t kMaxLines = 40;
// Lines are cut to this many characters before any regular expression sees
// them (std::regex recurses per character and a 30,000-character
// identifier overflowed the stack) and before they are shown.
constexpr std::size_t kMaxMatchedDiagnosticLine = 2000;

// A long line keeps its start and its end (where the compiler says what
// is wrong), the middle elided.
std::string capped_line(const std::string& line) {
  if (line.size() <= kMaxMatchedDiagnosticLine) return line;
  std::size_t head = kMaxMatchedDiagnosticLine * 2 / 3, tail = kMaxMatchedDiagnosticLine / 4;
  return fmt::format("{} [... {} characters ...] {}", line.substr(0, head), line.size() - head - tail,
                     line.substr(line.size() - tail));
}

void replace_all(std::string* text, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (std::size_t at = text->find(from); at != std::string::npos; at = text->find(from, at + to.size()))
    text->replace(at, from.size(), to);
}

struct Block {
  std::string path;
  std::string kind;  // error, warning, note, context, other
  std::vector<std::string> lines;
};

// The compiler's output as blocks: a located line (path:line:col: kind:
// message, or a context line such as "In function ...") with the source
// excerpt and caret lines under it. Include chains are dropped.
std::vector<Block> parse_blocks(const std::string& raw) {
  static const std::regex kLocated(R"(^([^:\s][^:]*):(\d+):(\d+): (fatal error|error|warning|note): .*)");
  static const std::regex kContext(R"(^([^:\s][^:]*):(\d+:\d+:)?\s+(In |required |in ).*)");
  static const std::regex kContextHeader(R"(^([^:\s][^:]*): (In |At ).*)");
  static const std::regex kIncludedFrom(R"(^\s+from .*)");
  std::vector<Block> blocks;
  std::istringstream input(raw);
  std::string whole;
  while (std::getline(input, whole)) {
    const std::string line = capped_line(whole);
    if (line.rfind("In file included from ", 0) == 0 || std::regex_match(line, kIncludedFrom)) continue;
    std::smatch match;
    if (std::regex_match(line, match, kLocated)) {
      std::string kind = match[4] == "fatal error" ? "error" : match[4].str();
      blocks.push_back({match[1], kind, {line}});
    } else if (std::regex_match(line, match, kContext) || std::regex_match(line, match, kContextHeader)) {
      blocks.push_back({match[1], "context", {line}});
    } else if (!blocks.empty() && (line.empty() || line[0] == ' ')) {
      blocks.back().lines.push_back(line);  // a source excerpt or caret under the previous line
    } else {
      blocks.push_back({"", "other", {line}});
    }
  }
  return blocks;
}

// The lines a learner needs: everything in their file and the adapter's
// errors, one line per error in a system header (at most three), and lines
// the compiler printed outside any block. *mentions_adapter is set when
// the adapter has an error (a wrong or missing signature).
std::vector<std::string> kept_lines(const std::vector<Block>& blocks, const DiagnosticsContext& context,
                                    bool* mentions_adapter) {
  std::vector<std::string> kept;
  std::size_t system_errors = 0;
  for (const Block& block : blocks) {
    bool in_solution = block.path == context.solution_path;
    bool in_adapter = block.path == context.adapter_path ||
                      (!context.adapter_macros_path.empty() && block.path == context.adapter_macros_path);
    if (in_solution || in_adapter) {
      if (in_adapter && block.kind == "context") continue;  // "In function 'judge_harness::Value ...'"
      *mentions_adapter = *mentions_adapter || (in_adapter && block.kind == "error");
      kept.insert(kept.end(), block.lines.begin(), block.lines.end());
    } else if (block.kind == "error" && system_errors++ < 3) {
      kept.push_back(block.lines.front());  // an error inside a system header: its one line, no excerpt
    } else if (block.kind == "other" && !block.lines.front().empty()) {
      kept.push_back(block.lines.front());
    }
  }
  return kept;
}
// The files the compile could not open that a solution may not use: an
// include of another file or of a path (a bare name such as <vectr> is a
// typo, left to the compiler's words), and anything the assembler was told
// to read. Each once, in order.
std::vector<std::string> refused_files(const std::vector<Block>& blocks, const DiagnosticsContext& context) {
  static const std::regex kInclude(
      R"(^[^:]*:\d+:\d+: fatal error: (.+): (No such file or directory|Permission denied)$)");
  static const std::regex kAssembler(R"(: Error: (?:file not found: (.+)|can't open (.+) for reading.*)$)");
  std::vector<std::string> refused;
  auto add = [&](const std::string& name) {
    if (std::find(refused.begin(), refused.end(), name) == refused.end()) refused.push_back(name);
  };
  for (const Block& block : blocks) {
    std::smatch match;
    const std::string& line = block.lines.front();
    if (block.path == context.solution_path && std::regex_match(line, match, kInclude) &&
        match[1].str().find_first_of("/.") != std::string::npos)
      add(match[1]);
    else if (std::regex_search(line, match, kAssembler))
      add(match[1].matched ? match[1].str() : match[2].str());
  }
  return refused;
}

// True when the link failed because the solution defines main(), which the
// harness already has: the linker's words name the harness's archive and a
// scratch object, none of which the learner knows.
bool defines_main(const std::string& raw) {
  for (const char* quoted : {"`main'", "'main'", "\u2018main\u2019"})
    if (raw.find(std::string("multiple definition of ") + quoted) != std::string::npos) return true;
  return false;
}
}  // namespace

std::string filter_diagnostics(const std::string& raw, const DiagnosticsContext& context) {
  if (defines_main(raw))
    return fmt::format(
        "{} defines main(): remove it, the harness has the main that calls your functions.\n"
        "To try them by hand, call them from a .cpp file of your own that includes this header.\n",
        context.solution_display);
  bool mentions_adapter = false;
  std::vector<Block> blocks = parse_blocks(raw);
  std::vector<std::string> kept = kept_lines(blocks, context, &mentions_adapter);
  std::string out;
  for (std::size_t i = 0; i < kept.size() && i < kMaxLines; ++i) out += kept[i] + "\n";
  if (kept.size() > kMaxLines) out += fmt::format("... ({} more lines omitted)\n", kept.size() - kMaxLines);
  for (const auto& [from, to] : context.renames) replace_all(&out, from, to);
  replace_all(&out, context.solution_path, context.solution_display);
  replace_all(&out, context.adapter_path, context.adapter_display);
  for (const std::string& name : refused_files(blocks, context))
    out += fmt::format(
        "\ncannot open {}: a solution is one file, compiled on its own with the standard library, Eigen and the "
        "harness headers only\n",
        name);
  if (mentions_adapter)
    out += "\nThe harness calls your code with exactly these declarations (check names, types and const&):\n" +
           context.signature;
  if (out.empty()) {
    // Nothing recognized: better the first lines as they are than nothing.
    std::istringstream lines(raw);
    std::string line;
    for (std::size_t i = 0; i < kMaxLines && std::getline(lines, line); ++i) out += capped_line(line) + "\n";
  }
  return out;
}

}  // namespace judge
