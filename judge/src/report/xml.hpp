// Escaping text for XML 1.0, whatever bytes it holds.
#pragma once

#include <string>

namespace judge {

// `text` escaped for XML 1.0 character data (`attribute`: for a quoted
// attribute value): &<>"' as entities, invalid UTF-8 as U+FFFD, control
// characters XML cannot carry as the text \xNN.
std::string xml_escape(const std::string& text, bool attribute);

}  // namespace judge
