// The one place that knows about terminals: whether to use colour and a
// live line, the colours themselves (fmt/color.h), and the line that a
// progress display rewrites in place.
#pragma once

#include <fmt/color.h>

#include <cstdio>
#include <string>

namespace judge {

// Whether to colour output, by the conventions in this order: NO_COLOR set
// to anything but "" turns colour off (no-color.org), whatever else is set;
// else FORCE_COLOR (force-color.org) or CLICOLOR_FORCE
// (bixense.com/clicolors) set to anything but "" or "0" turns it on, even
// into a pipe or a file; else colour goes to a terminal only. Null
// pointers are unset variables.
bool colour_wanted(bool terminal, const char* no_color, const char* force_color, const char* clicolor_force);

// colour_wanted for `stream` and the process's environment.
bool wants_colour(std::FILE* stream);
// True when `stream` is a terminal that can overwrite a line (TERM is not "dumb").
bool wants_live_progress(std::FILE* stream);

// The width text output should keep within: the terminal's columns when
// `stream` is one, else $COLUMNS, else 100.
std::size_t output_width(std::FILE* stream);

// The styles the judge uses, by meaning.
enum class Tone { kPass, kFail, kPassStrong, kFailStrong, kHint, kHeading, kError };

// `text` in the style of `tone` when `colour`, else `text` as it is.
std::string paint(bool colour, Tone tone, const std::string& text);

// A line at the bottom of a terminal that each show() replaces and clear()
// erases, so ordinary output scrolls above it ("case 12/39..."). Does
// nothing when not `enabled`.
class LiveLine {
 public:
  LiveLine(std::FILE* out, bool enabled) : out_(out), enabled_(enabled) {}
  bool enabled() const { return enabled_; }
  void show(const std::string& text);
  void clear();

 private:
  std::FILE* out_;
  bool enabled_;
  bool shown_ = false;
};

// Clears the whole screen and homes the cursor (`judge watch` on a terminal).
void clear_screen(std::FILE* out);

}  // namespace judge
