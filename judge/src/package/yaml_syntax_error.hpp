// yaml-cpp's syntax errors in plain words: the place, what is wrong in the
// terms of the file's author ("a tab indents this line"), then the line
// itself with a caret under the column.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>

namespace judge {

// The message for yaml-cpp's `error` raised while parsing `text`, which
// messages call `place` (a file's display path, or "--input"). Its first
// line is "PLACE:LINE:COLUMN: YAML syntax error: WHAT"; when the position
// lies within `text`, two more lines follow: the offending line (a tab
// shown as \t) and a caret under the column. When a tab in the line's
// indentation is the cause, the column and the caret are the tab's and the
// words say so. yaml-cpp's messages without a plainer wording pass through.
std::string describe_yaml_syntax_error(const std::string& place, std::string_view text,
                                       const YAML::ParserException& error);

}  // namespace judge
