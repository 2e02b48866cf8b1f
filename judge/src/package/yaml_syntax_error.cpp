// yaml-cpp's syntax errors translated (see yaml_syntax_error.hpp).
#include "package/yaml_syntax_error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <string>

#include "util/text.hpp"

namespace judge {
namespace {
constexpr const char* kTabIndents = "a tab character indents this line; YAML indents with spaces only";
constexpr const char* kLinesUpWithNothing =
    "this line's indentation lines up with nothing above it: start it in the column of the keys (or '- ' items) "
    "it belongs with";

// Plainer words for the yaml-cpp messages a problem's author meets most
// (yaml-cpp/exceptions.h); the others are already plain enough.
std::string plain_words(const std::string& message) {
  struct Wording {
    const char* yaml_cpp;
    const char* plain;
  };
  static const Wording kWordings[] = {
      {"illegal tab when looking for indentation", kTabIndents},
      {"end of map not found", kLinesUpWithNothing},
      {"end of sequence not found", kLinesUpWithNothing},
      {"end of map flow not found", "a mapping opened with '{' is not closed with '}' before this point"},
      {"end of sequence flow not found", "a list opened with '[' is not closed with ']' before this point"},
      {"illegal flow end", "this ']' or '}' does not match the bracket it closes"},
      {"illegal map value",
       "a ':' that cannot start a value here: a key indented deeper than the keys beside it, a key under a "
       "plain value, or a value holding ': ' that needs quotes"},
      {"illegal map key", "a key where none can start here (check this line's indentation)"},
      {"illegal block entry", "a '- ' list item where none can start here (check this line's indentation)"},
      {"unknown token", "a character that cannot start anything here"},
  };
  for (const Wording& wording : kWordings)
    if (message == wording.yaml_cpp) return wording.plain;
  return message;
}

// Line `index` (0-based) of `text`, without its line break; nullopt-like
// `found` false when the text has fewer lines.
std::string_view line_of(std::string_view text, int index, bool* found) {
  std::size_t start = 0;
  for (int line = 0; line < index; ++line) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      *found = false;
      return {};
    }
    start = end + 1;
  }
  std::size_t end = text.find('\n', start);
  std::string_view line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  *found = start < text.size() || index == 0;
  return line;
}

// `line` with each tab written \t, so that it can be seen.
std::string shown_line(std::string_view line) {
  std::string out;
  for (char c : line) out += c == '\t' ? std::string("\\t") : std::string(1, c);
  return out;
}
}  // namespace

std::string describe_yaml_syntax_error(const std::string& place, std::string_view text,
                                       const YAML::ParserException& error) {
  const YAML::Mark& mark = error.mark;
  if (mark.line < 0) return fmt::format("{}: YAML syntax error: {}", place, plain_words(error.msg));
  bool found = true;
  std::string_view line = line_of(text, mark.line, &found);
  std::size_t column = static_cast<std::size_t>(mark.column < 0 ? 0 : mark.column);
  std::string what = plain_words(error.msg);
  // Inside brackets a tab is mere space; elsewhere a tab in the indentation
  // is what yaml-cpp tripped on, whatever it says.
  bool about_brackets = error.msg.find("flow") != std::string::npos;
  std::size_t indent_end = line.find_first_not_of(" \t");
  std::size_t tab = line.substr(0, indent_end).find('\t');
  if (found && !about_brackets && tab != std::string_view::npos) {
    what = kTabIndents;
    column = tab;
  }
  std::string head = fmt::format("{}:{}:{}: YAML syntax error: {}", place, mark.line + 1, column + 1, what);
  if (!found) return head;
  std::string number = std::to_string(mark.line + 1);
  std::string before = shown_line(line.substr(0, std::min(column, line.size())));
  return fmt::format("{}\n  {} | {}\n  {} | {}^", head, number, shown_line(line), std::string(number.size(), ' '),
                     std::string(character_count(before), ' '));
}

}  // namespace judge
