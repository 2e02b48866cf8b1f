// Colour, live lines and screen control, for terminals only.
#include "util/terminal.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

namespace judge {
namespace {
fmt::text_style style_of(Tone tone) {
  switch (tone) {
    case Tone::kPass: return fmt::fg(fmt::terminal_color::green);
    case Tone::kFail: return fmt::fg(fmt::terminal_color::red);
    case Tone::kPassStrong: return fmt::emphasis::bold | fmt::fg(fmt::terminal_color::green);
    case Tone::kFailStrong: return fmt::emphasis::bold | fmt::fg(fmt::terminal_color::red);
    case Tone::kHint: return fmt::fg(fmt::terminal_color::yellow);
    case Tone::kHeading: return fmt::emphasis::bold;
    case Tone::kError: return fmt::fg(fmt::terminal_color::magenta);
  }
  return {};
}
}  // namespace

bool colour_wanted(bool terminal, const char* no_color, const char* force_color, const char* clicolor_force) {
  auto set = [](const char* value) { return value && *value; };
  auto forces = [&](const char* value) { return set(value) && std::string(value) != "0"; };
  if (set(no_color)) return false;
  if (forces(force_color) || forces(clicolor_force)) return true;
  return terminal;
}

bool wants_colour(std::FILE* stream) {
  return colour_wanted(isatty(fileno(stream)), std::getenv("NO_COLOR"), std::getenv("FORCE_COLOR"),
                       std::getenv("CLICOLOR_FORCE"));
}

bool wants_live_progress(std::FILE* stream) {
  const char* term = std::getenv("TERM");
  return isatty(fileno(stream)) && !(term && std::string(term) == "dumb");
}

std::size_t output_width(std::FILE* stream) {
  constexpr std::size_t kDefault = 100, kNarrowest = 40;
  winsize size{};
  if (isatty(fileno(stream)) && ioctl(fileno(stream), TIOCGWINSZ, &size) == 0 && size.ws_col > 0)
    return std::max<std::size_t>(size.ws_col, kNarrowest);
  if (const char* columns = std::getenv("COLUMNS")) {
    char* end = nullptr;
    long value = std::strtol(columns, &end, 10);
    if (end != columns && *end == '\0' && value > 0) return std::max<std::size_t>(value, kNarrowest);
  }
  return kDefault;
}

std::string paint(bool colour, Tone tone, const std::string& text) {
  return colour ? fmt::format(style_of(tone), "{}", text) : text;
}

void LiveLine::show(const std::string& text) {
  if (!enabled_) return;
  fmt::print(out_, "\r\033[K{}", text);
  shown_ = true;
  std::fflush(out_);
}

void LiveLine::clear() {
  if (shown_) fmt::print(out_, "\r\033[K");
  shown_ = false;
}

void clear_screen(std::FILE* out) { fmt::print(out, "\033[H\033[2J"); }

}  // namespace judge
