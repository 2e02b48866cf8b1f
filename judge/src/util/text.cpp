// Text helpers.
#include "util/text.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

namespace judge {

std::string display_path(const std::string& path) {
  std::error_code error;
  std::filesystem::path absolute = std::filesystem::absolute(path, error);
  std::filesystem::path relative = std::filesystem::proximate(absolute, std::filesystem::current_path(error), error);
  if (!error && !relative.empty() && relative.begin()->string() != "..") return relative.string();
  return absolute.lexically_normal().string();
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string nearest_name(std::string_view word, const std::vector<std::string>& candidates, std::size_t max_distance) {
  std::string best;
  std::size_t best_distance = max_distance;
  for (const std::string& candidate : candidates) {
    std::size_t distance = edit_distance(word, candidate);
    if (distance < best_distance) best_distance = distance, best = candidate;
  }
  return best;
}

std::string unknown_name_message(std::string_view kind, std::string_view word, const std::vector<std::string>& known) {
  std::string near = nearest_name(word, known);
  if (!near.empty()) return fmt::format("unknown {} '{}' (did you mean '{}'?)", kind, word, near);
  return fmt::format("unknown {} '{}'; expected one of: {}", kind, word, fmt::join(known, ", "));
}

std::uint32_t next_code_point(std::string_view text, std::size_t* at, std::string* bytes) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const std::size_t i = *at;
  unsigned char lead = byte(i);
  std::size_t length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xe ? 3 : (lead >> 3) == 0x1e ? 4 : 0;
  std::uint32_t code = length == 1 ? lead : length == 2 ? lead & 0x1f : length == 3 ? lead & 0x0f : lead & 0x07;
  bool valid = length != 0 && i + length <= text.size();
  for (std::size_t k = 1; valid && k < length; ++k) {
    valid = (byte(i + k) & 0xc0) == 0x80;
    code = (code << 6) | (byte(i + k) & 0x3f);
  }
  static constexpr std::uint32_t kMinimum[] = {0, 0, 0x80, 0x800, 0x10000};
  valid = valid && code >= kMinimum[length] && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
  if (!valid) {
    *at = i + 1;
    bytes->append("\xef\xbf\xbd");
    return 0xfffd;
  }
  bytes->append(text.substr(i, length));
  *at = i + length;
  return code;
}

std::string cap_characters(const std::string& text, std::size_t limit, const std::string& note) {
  std::size_t characters = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xc0) == 0x80) continue;  // a continuation byte
    if (++characters > limit) return text.substr(0, i) + note;
  }
  return text;
}

std::size_t character_count(std::string_view text) {
  std::size_t characters = 0;
  for (char c : text) characters += (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  return characters;
}

std::vector<std::string> wrap_words(const std::string& text, std::size_t width) {
  width = std::max<std::size_t>(width, 1);
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string rest = text.substr(start, end - start);
    while (character_count(rest) > width) {
      std::string head = cap_characters(rest, width, "");
      std::size_t space = head.rfind(' ');
      if (space == std::string::npos || space == 0) space = head.size();
      lines.push_back(rest.substr(0, space));
      std::size_t next = rest.find_first_not_of(' ', space);
      rest = next == std::string::npos ? "" : rest.substr(next);
    }
    lines.push_back(rest);
    if (end == text.size()) break;
    start = end + 1;
  }
  return lines;
}

namespace {
std::string escape_for_terminal(std::string_view text, bool keep_newline_and_tab) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t start = at;
    std::string bytes;
    std::uint32_t code = next_code_point(text, &at, &bytes);
    const bool invalid = code == 0xfffd && text.substr(start, at - start) != "\xef\xbf\xbd";
    if (invalid) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(text[start]));
    } else if ((code < 0x20 && !(keep_newline_and_tab && (code == '\n' || code == '\t'))) || code == 0x7f) {
      out += fmt::format("\\x{:02x}", code);
    } else if ((code >= 0x80 && code <= 0x9f) || (code >= 0x202a && code <= 0x202e) ||
               (code >= 0x2066 && code <= 0x2069)) {
      out += fmt::format("\\u{:04x}", code);
    } else {
      out += bytes;
    }
  }
  return out;
}
}  // namespace

std::string terminal_safe(std::string_view text) { return escape_for_terminal(text, true); }

std::string terminal_safe_line(std::string_view text) { return escape_for_terminal(text, false); }

std::string fit_characters(const std::string& line, std::size_t width) {
  if (character_count(line) <= width) return line;
  return cap_characters(line, width > 3 ? width - 3 : 0, "...");
}

std::string indent_lines(const std::string& text, const std::string& prefix, std::size_t max_lines, std::size_t width) {
  std::istringstream in(text);
  std::string line, out;
  std::size_t count = 0;
  while (std::getline(in, line)) {
    if (count++ >= max_lines) continue;
    std::string shown = prefix + terminal_safe(line);
    out += (width ? fit_characters(shown, width) : shown) + "\n";
  }
  if (count > max_lines) out += fmt::format("{}... ({} more lines)\n", prefix, count - max_lines);
  return out;
}

}  // namespace judge
