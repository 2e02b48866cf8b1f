// Text on the runner channel is UTF-8, on both sides: the harness writes
// the learner's bytes (an exception's what(), a string an op returns) with
// every byte that starts no valid UTF-8 sequence spelled out as \xNN, and
// the judge refuses a reply holding any other text as malformed, since only
// a frame forged by the learner's code can.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace judge_harness {

// The length (1 to 4) of the valid UTF-8 sequence that starts at
// text[at], or 0 when none does: a continuation byte, a truncated
// sequence, an overlong form, a surrogate or a value past U+10FFFF.
inline std::size_t utf8_sequence_length(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(text[i]); };
  const std::uint8_t lead = byte(at);
  if (lead < 0x80) return 1;
  std::size_t length = lead >= 0xC2 && lead <= 0xDF   ? 2
                       : lead >= 0xE0 && lead <= 0xEF ? 3
                       : lead >= 0xF0 && lead <= 0xF4 ? 4
                                                      : 0;
  if (length == 0 || text.size() - at < length) return 0;
  // The second byte's range is narrower after E0 (overlong), ED
  // (surrogates), F0 (overlong) and F4 (past U+10FFFF).
  const std::uint8_t low = lead == 0xE0 ? 0xA0 : lead == 0xF0 ? 0x90 : 0x80;
  const std::uint8_t high = lead == 0xED ? 0x9F : lead == 0xF4 ? 0x8F : 0xBF;
  if (byte(at + 1) < low || byte(at + 1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i)
    if ((byte(at + i) & 0xC0) != 0x80) return 0;
  return length;
}

// True when every byte of `text` belongs to a valid UTF-8 sequence.
inline bool is_valid_utf8(std::string_view text) {
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t length = utf8_sequence_length(text, at);
    if (length == 0) return false;
    at += length;
  }
  return true;
}

// `text` with each byte that starts no valid sequence written as the four
// characters \xNN (lower-case hex); valid text is returned unchanged.
inline std::string with_invalid_utf8_escaped(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t length = utf8_sequence_length(text, at);
    if (length > 0) {
      out.append(text.substr(at, length));
      at += length;
      continue;
    }
    const auto bad = static_cast<std::uint8_t>(text[at++]);
    out += "\\x";
    out += kHex[bad >> 4];
    out += kHex[bad & 15];
  }
  return out;
}

}  // namespace judge_harness
