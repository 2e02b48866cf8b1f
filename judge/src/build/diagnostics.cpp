// Filtering compiler diagnostics down to the learner's own mistakes.
#include "build/diagnostics.hpp"

#include <fmt/format.h>
#include <regex>
#include <sstream>
#include <vector>

namespace judge {
namespace {
constexpr std::size_t kMaxLines = 40;

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
  std::string line;
  while (std::getline(input, line)) {
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
    bool in_adapter = block.path == context.adapter_path;
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
}  // namespace

std::string filter_diagnostics(const std::string& raw, const DiagnosticsContext& context) {
  bool mentions_adapter = false;
  std::vector<std::string> kept = kept_lines(parse_blocks(raw), context, &mentions_adapter);
  std::string out;
  for (std::size_t i = 0; i < kept.size() && i < kMaxLines; ++i) out += kept[i] + "\n";
  if (kept.size() > kMaxLines) out += fmt::format("... ({} more lines omitted)\n", kept.size() - kMaxLines);
  replace_all(&out, context.solution_path, context.solution_display);
  replace_all(&out, context.adapter_path, context.adapter_display);
  if (mentions_adapter)
    out += "\nThe harness calls your code with exactly these declarations (check names, types and const&):\n" +
           context.signature;
  if (out.empty()) out = raw;  // nothing recognized: better everything than nothing
  return out;
}

}  // namespace judge
