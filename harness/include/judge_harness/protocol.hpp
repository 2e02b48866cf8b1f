// The wire protocol between the judge and a runner, shared by both sides.
//
// The runner inherits one socket as file descriptor kChannelFd. Every message
// is a frame: a 4-byte little-endian payload length, then the payload.
// The judge's first frame is the greeting: kNonceSize random bytes. Every
// later judge frame is a CBOR map {"op": name, "args": map}. The runner's
// first frame is the nonce alone, once main() is reached (every static
// initializer has run): the runner is ready. Every later runner frame is the
// nonce followed by a CBOR map: {"value": result} or
// {"exception": kind, "type": dynamic type, "what": text} or
// {"harness_error": text}; a value or an exception also holds
// "changed_inputs" when the learner's code changed an input it receives by
// const reference (input_watch.hpp). A frame without the nonce did not
// come from the harness and makes the reply malformed.
//
// Both sides send a non-empty list of floating-point numbers as a typed
// array (RFC 8746): CBOR tag kFloat64ArrayTag on a byte string of
// little-endian doubles. Decoding 262,144 numbers that way is a copy, where
// one CBOR item per number took about 15 ms on each side of every call
// (channel_cbor.hpp decodes frames on both sides).
// A non-empty list of integers that all fit in int64 travels the same way
// under kInt64ArrayTag. No other tag is accepted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace judge_harness {

inline constexpr int kChannelFd = 3;
inline constexpr std::size_t kNonceSize = 16;
inline constexpr std::uint32_t kMaxFrameBytes = 1u << 29;  // 512 MiB
inline constexpr std::uint8_t kFloat64ArrayTag = 86;       // RFC 8746: float64, little endian
inline constexpr std::uint8_t kInt64ArrayTag = 79;         // RFC 8746: sint64, little endian
// Environment variable the judge sets for a runner: how many bytes of heap
// the runner may pre-fault before a large request (see heap_warmup.cpp).
inline constexpr const char* kWarmupLimitVariable = "JUDGE_HEAP_WARMUP_BYTES";

// Blocking frame I/O on a descriptor; false on end of file, error or an
// oversized frame.
bool read_frame(int fd, std::string* payload);
bool write_frame(int fd, const std::string& payload);

}  // namespace judge_harness
