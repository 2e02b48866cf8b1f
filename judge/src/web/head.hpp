// A request head as the gate of `judge serve` reads it (web/gate.hpp):
// where it ends, whether it stays within its bounds while it arrives, and
// what the guard (web/guard.hpp) and the body limit need from it.
//
// No sockets here: the rules are tested on byte strings
// (tests/serve_test.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "web/guard.hpp"

namespace judge {

// How large a request head may be: the request line and the header lines
// up to the blank line that ends them.
struct HeadBounds {
  std::size_t bytes = 8 * 1024;  // the whole head, each CRLF and the blank line included
  std::size_t lines = 64;        // the request line and the header lines
};

// Follows the bytes of one request head as they arrive, each byte looked
// at once, so that a head sent a byte at a time costs no more than one
// sent whole.
class HeadScanner {
 public:
  enum class State {
    kIncomplete,    // within the bounds so far; more is needed
    kComplete,      // the blank line arrived: head_size() bytes
    kTooLong,       // `bytes` received without the blank line
    kTooManyLines,  // more than `lines` lines before the blank line
    kMalformed,     // a line ends in LF without CR, or the head is empty
  };

  explicit HeadScanner(HeadBounds bounds = {}) : bounds_(bounds) {}

  // Looks at what `received` holds beyond what earlier calls saw; it must
  // start with the bytes given before. Bytes past the head (a body, the
  // next request) are left alone. Once the state is not kIncomplete it no
  // longer changes.
  State advance(std::string_view received);

  State state() const { return state_; }
  // The head's size, its blank line included; 0 until kComplete.
  std::size_t head_size() const { return state_ == State::kComplete ? scanned_ : 0; }

 private:
  HeadBounds bounds_;
  State state_ = State::kIncomplete;
  std::size_t scanned_ = 0;     // bytes looked at
  std::size_t line_start_ = 0;  // where the current line began
  std::size_t lines_ = 0;       // lines ended so far
};

// What a complete head says.
struct RequestHead {
  std::string method;
  std::string path;                             // the target without its query, percent-decoded
  WebRequestFacts facts;                        // what the guard decides on
  std::optional<std::uint64_t> content_length;  // Content-Length, when sent
  bool chunked = false;                         // a Transfer-Encoding was sent: a body of unknown length
};

// Reads a complete head (a kComplete scanner's first head_size() bytes).
// Of a header sent more than once, the first counts, as for the server.
// Returns nullopt and sets *error ("malformed request line", "malformed
// header line 3", "Content-Length is not a number") when it is not HTTP/1.x.
std::optional<RequestHead> parse_request_head(std::string_view head, std::string* error);

}  // namespace judge
