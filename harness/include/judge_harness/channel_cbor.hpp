// Decoding a frame's CBOR payload on either side of the runner channel
// (protocol.hpp), in one pass, with nesting bounded.
//
// It reads what nlohmann::json::to_cbor writes, and nothing else: definite
// lengths only; unsigned and negative integers; text strings; arrays; maps
// with text keys; false, true, null; half, single and double floats; and a
// byte string only under kFloat64ArrayTag or kInt64ArrayTag. A typed array
// is copied once and kept as the tagged byte string: the harness turns it
// into a Value with one more copy, the judge reads its doubles in place
// (judge/src/run/number_list.hpp).
//
// Why not nlohmann::json::from_cbor: it appends a byte string to its buffer
// one byte at a time (tens of milliseconds for a reply of 262,144 numbers,
// on every call), and it recurses once per nesting level, so a runner that
// forges a reply of a million nested arrays would overflow the judge's
// stack. Here nesting deeper than kMaxChannelDepth is refused.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "judge_harness/protocol.hpp"

namespace judge_harness {

// Values on the channel nest a handful of levels (a map of argument lists of
// rows); anything deeper is not a frame either side writes.
inline constexpr int kMaxChannelDepth = 64;

namespace channel_cbor_detail {
using json = nlohmann::json;

class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t size) : at_(data), end_(data + size) {}

  bool whole(json* out) { return item(out, 0) && at_ == end_; }
  const std::string& problem() const { return problem_; }

 private:
  bool refuse(const char* why) {
    if (problem_.empty()) problem_ = why;
    return false;
  }
  std::size_t left() const { return static_cast<std::size_t>(end_ - at_); }

  // The head's argument: the low five bits, or the 1, 2, 4 or 8 big-endian
  // bytes they announce.
  bool argument(std::uint8_t info, std::uint64_t* value) {
    if (info < 24) {
      *value = info;
      return true;
    }
    std::size_t bytes = info == 24 ? 1 : info == 25 ? 2 : info == 26 ? 4 : info == 27 ? 8 : 0;
    if (bytes == 0) return refuse("an indefinite length or a reserved head");
    if (left() < bytes) return refuse("truncated");
    std::uint64_t number = 0;
    for (std::size_t i = 0; i < bytes; ++i) number = (number << 8) | *at_++;
    *value = number;
    return true;
  }

  bool simple(std::uint8_t info, json* out) {
    switch (info) {
      case 20: *out = false; return true;
      case 21: *out = true; return true;
      case 22: *out = nullptr; return true;
      case 25:
      case 26:
      case 27: break;
      default: return refuse("a simple value other than false, true or null");
    }
    std::uint64_t bits = 0;
    if (!argument(info, &bits)) return false;
    if (info == 27) {
      double number;
      std::memcpy(&number, &bits, sizeof number);
      *out = number;
    } else if (info == 26) {
      std::uint32_t narrow = static_cast<std::uint32_t>(bits);
      float number;
      std::memcpy(&number, &narrow, sizeof number);
      *out = static_cast<double>(number);
    } else {  // IEEE 754 half precision, as RFC 8949 appendix D decodes it
      const int exponent = static_cast<int>((bits >> 10) & 0x1F);
      const double mantissa = static_cast<double>(bits & 0x3FF);
      double number = exponent == 0    ? std::ldexp(mantissa, -24)
                      : exponent == 31 ? (mantissa == 0 ? std::numeric_limits<double>::infinity()
                                                        : std::numeric_limits<double>::quiet_NaN())
                                       : std::ldexp(mantissa + 1024, exponent - 25);
      *out = (bits & 0x8000) ? -number : number;
    }
    return true;
  }

  bool typed_array(std::uint64_t tag, json* out) {
    if (tag != kFloat64ArrayTag && tag != kInt64ArrayTag) return refuse("a tag other than a typed array's");
    if (at_ == end_ || (*at_ >> 5) != 2) return refuse("a tag on something other than a byte string");
    std::uint64_t size = 0;
    if (!argument(*at_++ & 31, &size)) return false;
    if (size > left()) return refuse("truncated");
    if (size % 8 != 0) return refuse("a typed array whose size is not a multiple of 8 bytes");
    *out = json::binary(json::binary_t::container_type(at_, at_ + size), static_cast<std::uint8_t>(tag));
    at_ += size;
    return true;
  }

  bool item(json* out, int depth) {
    if (at_ == end_) return refuse("truncated");
    const std::uint8_t head = *at_++;
    const std::uint8_t major = head >> 5, info = head & 31;
    if (major == 7) return simple(info, out);
    std::uint64_t arg = 0;
    if (!argument(info, &arg)) return false;
    switch (major) {
      case 0: *out = arg; return true;
      case 1:
        if (arg > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
          return refuse("a negative integer below int64");
        *out = -1 - static_cast<std::int64_t>(arg);
        return true;
      case 2: return refuse("a byte string outside a typed array");
      case 3:
        if (arg > left()) return refuse("truncated");
        *out = std::string(reinterpret_cast<const char*>(at_), static_cast<std::size_t>(arg));
        at_ += arg;
        return true;
      case 6: return typed_array(arg, out);
      default: break;
    }
    // An array or a map: every element takes at least one byte, so a count
    // beyond what is left is truncated (and never reserved).
    if (depth >= kMaxChannelDepth) return refuse("nested too deeply");
    if (arg > left()) return refuse("truncated");
    if (major == 4) {
      json::array_t list;
      list.reserve(static_cast<std::size_t>(arg));
      for (std::uint64_t i = 0; i < arg; ++i) {
        list.emplace_back();
        if (!item(&list.back(), depth + 1)) return false;
      }
      *out = std::move(list);
      return true;
    }
    *out = json::object();
    for (std::uint64_t i = 0; i < arg; ++i) {
      if (at_ == end_ || (*at_ >> 5) != 3) return refuse("a map key that is not a text string");
      json key;
      if (!item(&key, depth + 1)) return false;
      if (!item(&(*out)[key.get_ref<const std::string&>()], depth + 1)) return false;
    }
    return true;
  }

  const std::uint8_t* at_;
  const std::uint8_t* end_;
  std::string problem_;
};
}  // namespace channel_cbor_detail

// Decodes one whole payload into *out. False, with *problem saying why, when
// it is not exactly one item of the kinds above.
inline bool decode_channel_cbor(const void* data, std::size_t size, nlohmann::json* out, std::string* problem) {
  channel_cbor_detail::Reader reader(static_cast<const std::uint8_t*>(data), size);
  if (reader.whole(out)) return true;
  *problem = reader.problem().empty() ? "trailing bytes after the item" : reader.problem();
  return false;
}

}  // namespace judge_harness
