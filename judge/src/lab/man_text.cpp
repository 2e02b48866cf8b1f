#include "lab/man_text.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>

namespace judge::lab {
namespace {

// A compressed page of more than this is not prose (a generated reference).
constexpr std::size_t kLargestPage = 1 << 20;

std::string gunzip_file(const std::string& path) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (file == nullptr) return "";
  std::string out;
  char buffer[1 << 14];
  int got = 0;
  while ((got = gzread(file, buffer, sizeof buffer)) > 0 && out.size() < 8 * kLargestPage)
    out.append(buffer, static_cast<std::size_t>(got));
  gzclose(file);
  return out;
}

bool in_alphabet(char c) { return c == '\n' || (c >= 32 && c <= 126); }

// The text an escape stands for: named glyphs that have a plain spelling,
// nothing for font, size and spacing changes.
const std::map<std::string, std::string>& glyphs() {
  static const std::map<std::string, std::string> table = {
      {"em", "--"}, {"en", "-"},  {"hy", "-"},  {"mi", "-"},   {"bu", "*"},    {"aq", "'"},  {"dq", "\""},
      {"lq", "\""}, {"rq", "\""}, {"oq", "'"},  {"cq", "'"},   {"ga", "`"},    {"ti", "~"},  {"ha", "^"},
      {"rs", "\\"}, {"at", "@"},  {"sl", "/"},  {"co", "(c)"}, {"tm", "(tm)"}, {"+-", "+-"}, {"<=", "<="},
      {">=", ">="}, {"->", "->"}, {"<-", "<-"}, {"mu", "x"},   {"pc", "."}};
  return table;
}

std::string glyph(const std::string& name) {
  auto it = glyphs().find(name);
  return it == glyphs().end() ? "" : it->second;
}

// Resolves the escape starting at line[i] (a backslash); returns its text
// and moves i past it.
std::string escape_at(const std::string& line, std::size_t& i) {
  ++i;  // the backslash
  if (i >= line.size()) return "";
  char c = line[i++];
  auto bracketed = [&]() {  // [name] after \[ or \f[ and friends
    std::size_t close = line.find(']', i);
    std::string name = line.substr(i, close == std::string::npos ? std::string::npos : close - i);
    i = close == std::string::npos ? line.size() : close + 1;
    return name;
  };
  auto two = [&]() {
    std::string name = line.substr(i, 2);
    i = std::min(line.size(), i + 2);
    return name;
  };
  auto argument = [&]() {  // \f B, \f(BI, \f[BI]
    if (i >= line.size()) return std::string();
    if (line[i] == '(') return ++i, two();
    if (line[i] == '[') return ++i, bracketed();
    return std::string(1, line[i++]);
  };
  switch (c) {
    case '(': return glyph(two());
    case '[': return glyph(bracketed());
    case 'f':
    case '*':
    case 'n':
    case 'F':
    case 'm':
    case 'g': argument(); return "";
    case 's':  // \s+1, \s-1, \s0, \s(12, \s[12]
      if (i < line.size() && (line[i] == '+' || line[i] == '-')) ++i;
      if (i < line.size() && (line[i] == '(' || line[i] == '[')) {
        argument();
        return "";
      }
      while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]))) ++i;
      return "";
    case '-': return "-";
    case 'e':
    case '\\': return "\\";
    case ' ':
    case '~':
    case '0': return " ";
    case '"': i = line.size(); return "";  // a comment to the end of the line
    default:
      // \h'1n' and the like: a quoted argument, no text
      if (std::string("hvwlLoXZk").find(c) != std::string::npos && i < line.size()) {
        const char quote = line[i++];
        const std::size_t close = line.find(quote, i);
        i = close == std::string::npos ? line.size() : close + 1;
      }
      return "";  // \&, \|, \^, \c, \%, \: and the rest print nothing
  }
}

std::string resolve_escapes(const std::string& line) {
  std::string out;
  for (std::size_t i = 0; i < line.size();) {
    if (line[i] == '\\') {
      out += escape_at(line, i);
    } else {
      if (line[i] == '\t')
        out += ' ';
      else if (in_alphabet(line[i]))
        out += line[i];
      ++i;
    }
  }
  return out;
}

// The words of a request line: quoted arguments as one, quotes removed.
std::vector<std::string> arguments(const std::string& rest) {
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < rest.size()) {
    while (i < rest.size() && rest[i] == ' ') ++i;
    if (i >= rest.size()) break;
    std::string word;
    if (rest[i] == '"') {
      std::size_t close = rest.find('"', i + 1);
      word = rest.substr(i + 1, close == std::string::npos ? std::string::npos : close - i - 1);
      i = close == std::string::npos ? rest.size() : close + 1;
    } else {
      std::size_t end = rest.find(' ', i);
      word = rest.substr(i, end == std::string::npos ? std::string::npos : end - i);
      i = end == std::string::npos ? rest.size() : end;
    }
    words.push_back(word);
  }
  return words;
}

// Macros whose arguments are text: man(7)'s headings and fonts, and the
// mdoc(7) macros that name things in running text.
const std::set<std::string> kJoinedFonts = {"BR", "RB", "IR", "RI", "BI", "IB"};
const std::set<std::string> kTextMacros = {"SH", "SS", "B",  "I",  "SM", "SB", "IP", "Nm", "Nd", "Ar", "Fl",
                                           "Op", "Xr", "Pa", "Em", "Sy", "Dq", "Ql", "Cm", "Va", "Ev", "Fn",
                                           "Ft", "Li", "It", "Sh", "Ss", "Pq", "Sq", "Dv", "Er", "Ic"};

std::string request_text(const std::string& line) {
  std::size_t name_start = 1;
  while (name_start < line.size() && line[name_start] == ' ') ++name_start;
  std::size_t name_end = line.find(' ', name_start);
  std::string name = line.substr(name_start, name_end == std::string::npos ? std::string::npos : name_end - name_start);
  std::string rest = name_end == std::string::npos ? "" : line.substr(name_end + 1);
  bool joined = kJoinedFonts.count(name) > 0;
  if (!joined && kTextMacros.count(name) == 0) return "";
  std::vector<std::string> words = arguments(rest);
  if (name == "IP" && words.size() > 1) words.resize(1);  // the indent is not text
  std::string text;
  for (const std::string& word : words) {
    if (!joined && !text.empty()) text += ' ';
    text += word;
  }
  return text;
}

// .SH and .SS stand on a line of their own.
bool name_is_heading(const std::string& line) {
  std::vector<std::string> words = arguments(line.substr(1));
  return !words.empty() && (words[0] == "SH" || words[0] == "SS" || words[0] == "Sh" || words[0] == "Ss");
}

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

}  // namespace

std::string strip_roff(const std::string& roff) {
  // Text lines fill a paragraph (roff joins them with spaces); a heading,
  // paragraph or break request starts a new line, and so does every line
  // between .nf and .fi.
  static const std::set<std::string> breaks = {"SH", "SS", "PP", "P",  "LP", "TP", "IP", "br", "sp", "nf",
                                               "fi", "Sh", "Ss", "Pp", "It", "Bl", "El", "Bd", "Ed", "TH"};
  std::string out;
  bool fill = true;
  std::size_t start = 0;
  while (start < roff.size()) {
    std::size_t end = roff.find('\n', start);
    if (end == std::string::npos) end = roff.size();
    std::string line = roff.substr(start, end - start);
    start = end + 1;
    if (line.rfind(".\\\"", 0) == 0 || line.rfind("'\\\"", 0) == 0 || line.rfind("\\\"", 0) == 0) continue;
    bool request = !line.empty() && (line[0] == '.' || line[0] == '\'');
    bool new_line = !fill;
    if (request) {
      std::string name = arguments(line.substr(1)).empty() ? "" : arguments(line.substr(1))[0];
      if (name == "nf") fill = false;
      if (name == "fi") fill = true;
      new_line = new_line || breaks.count(name) > 0;
    }
    std::string text = resolve_escapes(request ? request_text(line) : line);
    while (!text.empty() && text.back() == ' ') text.pop_back();
    if (new_line && !out.empty() && out.back() != '\n') out += '\n';
    if (text.empty()) continue;
    if (!out.empty() && out.back() != '\n') out += ' ';
    out += text;
    if (request && (name_is_heading(line))) out += '\n';
  }
  if (!out.empty() && out.back() != '\n') out += '\n';
  return out;
}

bool is_held_out(const std::string& file_name) { return fnv1a(file_name) % 10 == 0; }

std::string manual_text(TextSplit split, std::size_t max_bytes, const std::string& man_root) {
  std::vector<std::filesystem::path> pages;
  std::error_code error;
  for (int section = 1; section <= 8; ++section) {
    std::filesystem::path folder = std::filesystem::path(man_root) / ("man" + std::to_string(section));
    for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
      if (!entry.is_regular_file(error) || entry.file_size(error) > kLargestPage) continue;
      bool held_out = is_held_out(entry.path().filename().string());
      if (held_out == (split == TextSplit::kHeldOut)) pages.push_back(entry.path());
    }
  }
  std::sort(pages.begin(), pages.end(), [](const auto& a, const auto& b) { return a.filename() < b.filename(); });
  std::string text;
  for (const auto& page : pages) {
    std::string roff = page.extension() == ".gz" ? gunzip_file(page.string()) : std::string();
    if (roff.rfind(".so ", 0) == 0) continue;  // a link to another page
    std::string plain = strip_roff(roff);
    if (plain.size() < 200) continue;
    text += plain;
    text += '\n';
    if (text.size() >= max_bytes) {
      text.resize(max_bytes);
      break;
    }
  }
  return text;
}

}  // namespace judge::lab
