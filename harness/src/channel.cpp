// Frame I/O on the judge's channel, and claiming it at start-up.
#include <judge_harness/protocol.hpp>
#include <judge_harness/runner.hpp>

#include <unistd.h>
#include <cerrno>
#include <cstdlib>

#include "heap_warmup.hpp"

namespace judge_harness {
void install_crash_trace();            // crash_trace.cpp
void install_denied_syscall_report();  // crash_trace.cpp

namespace {
bool read_all(int fd, char* data, std::size_t size) {
  while (size > 0) {
    ssize_t n = ::read(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

bool write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}
}  // namespace

bool read_frame(int fd, std::string* payload) {
  unsigned char header[4];
  if (!read_all(fd, reinterpret_cast<char*>(header), 4)) return false;
  std::uint32_t size = header[0] | (header[1] << 8) | (header[2] << 16) | (static_cast<std::uint32_t>(header[3]) << 24);
  if (size > kMaxFrameBytes) return false;
  warm_heap_for_request(size);
  payload->resize(size);
  return read_all(fd, payload->data(), size);
}

bool write_frame(int fd, const std::string& payload) {
  if (payload.size() > kMaxFrameBytes) return false;
  std::uint32_t size = static_cast<std::uint32_t>(payload.size());
  unsigned char header[4] = {static_cast<unsigned char>(size), static_cast<unsigned char>(size >> 8),
                             static_cast<unsigned char>(size >> 16), static_cast<unsigned char>(size >> 24)};
  return write_all(fd, reinterpret_cast<const char*>(header), 4) && write_all(fd, payload.data(), payload.size());
}

// Set once by claim_channel(), read by the serving loop.
std::string& channel_nonce() {
  static std::string nonce;
  return nonce;
}

bool claim_channel() {
  if (!channel_nonce().empty()) return true;
  std::string greeting;
  if (!read_frame(kChannelFd, &greeting) || greeting.size() != kNonceSize) {
    // Started by hand, not by the judge: there is nobody to serve.
    static const char kMessage[] = "this program is a judge runner; run it through `judge run`\n";
    [[maybe_unused]] ssize_t ignored = ::write(2, kMessage, sizeof kMessage - 1);
    std::_Exit(97);
  }
  channel_nonce() = greeting;
  install_denied_syscall_report();  // before the learner's static initializers run
  install_crash_trace();
  return true;
}

}  // namespace judge_harness
