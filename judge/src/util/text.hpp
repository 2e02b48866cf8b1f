// Small text helpers shared by every stage: paths for messages, "did you
// mean", and walking UTF-8 that may be invalid (a learner's output).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace judge {

// A path for messages: relative to the current directory when inside it,
// otherwise absolute and normalized.
std::string display_path(const std::string& path);

// Levenshtein distance between `a` and `b`.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate nearest to `word` by edit distance, when it is closer than
// `max_distance`; empty otherwise (and for an exact match's absence of
// candidates).
std::string nearest_name(std::string_view word, const std::vector<std::string>& candidates,
                         std::size_t max_distance = 3);

// "unknown KIND 'WORD'", then " (did you mean 'NEAREST'?)" when one of
// `known` is near by nearest_name, else "; expected one of: A, B, C".
std::string unknown_name_message(std::string_view kind, std::string_view word, const std::vector<std::string>& known);

// One step through UTF-8 text: the code point starting at `text[*at]`, whose
// bytes are appended to `*bytes`, with *at moved past it. A byte that does
// not start a valid sequence (overlong forms, surrogates and values past
// U+10FFFF included) is consumed alone and gives U+FFFD, whose UTF-8 is
// appended instead.
std::uint32_t next_code_point(std::string_view text, std::size_t* at, std::string* bytes);

// `text` cut after `limit` characters (UTF-8 sequences; continuation bytes
// do not count), with `note` appended when cut.
std::string cap_characters(const std::string& text, std::size_t limit, const std::string& note);

// The number of characters (UTF-8 sequences) in `text`.
std::size_t character_count(std::string_view text);

// `text` broken into lines of at most `width` characters at spaces (a word
// longer than a line is cut); its own newlines are kept.
std::vector<std::string> wrap_words(const std::string& text, std::size_t width);

// `text` made harmless for a terminal: every control character but newline
// and tab (C0, DEL, and C1 such as U+009B, the one-byte CSI), every byte
// that is not valid UTF-8, and the invisible bidirectional overrides
// (U+202A to U+202E, U+2066 to U+2069) appear as text: \x1b, \xff,
// \u202e. What a submission printed, threw or was named can then neither
// move the cursor, recolour, rewrite a line nor reach the clipboard.
std::string terminal_safe(std::string_view text);

// terminal_safe() for what must stay on its own line, such as a
// submission's file name in a line of progress: newline and tab are
// written \x0a and \x09 as well, so a name cannot start a line of its own.
std::string terminal_safe_line(std::string_view text);

// `line` cut to `width` characters, with "..." at its end when cut.
std::string fit_characters(const std::string& line, std::size_t width);

// `text`, made terminal_safe, a line at a time behind `prefix`: at most
// `max_lines` lines, then "... (N more lines)"; with a `width`, each line
// (prefix included) cut to it.
std::string indent_lines(const std::string& text, const std::string& prefix, std::size_t max_lines,
                         std::size_t width = 0);

}  // namespace judge
