// xml_escape.
#include "report/xml.hpp"

#include <fmt/format.h>

#include <cstdint>

#include "util/text.hpp"

namespace judge {

std::string xml_escape(const std::string& text, bool attribute) {
  std::string out;
  out.reserve(text.size());
  std::string bytes;
  for (std::size_t i = 0; i < text.size();) {
    bytes.clear();
    std::uint32_t code = next_code_point(text, &i, &bytes);
    switch (code) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      // Parsers normalize raw line breaks and tabs in attributes to spaces,
      // and \r everywhere: kept by character reference.
      case '\n': out += attribute ? "&#10;" : "\n"; break;
      case '\t': out += attribute ? "&#9;" : "\t"; break;
      case '\r': out += "&#13;"; break;
      default:
        // XML 1.0 cannot carry other control characters, U+FFFE or U+FFFF,
        // not even by reference: shown as \xNN (or U+FFFD).
        if (code < 0x20)
          out += fmt::format("\\x{:02x}", code);
        else if (code == 0xfffe || code == 0xffff)
          out += "\xef\xbf\xbd";
        else
          out += bytes;
    }
  }
  return out;
}

}  // namespace judge
