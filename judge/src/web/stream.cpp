// cpp-httplib's view of an admitted request's connection (web/stream.hpp).
#include "web/stream.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>

namespace judge {
namespace {
using Clock = std::chrono::steady_clock;

// "127.0.0.1" and the port of a socket's end (getpeername or getsockname).
template <typename GetName>
void address_of(int socket, GetName get_name, std::string& ip, int& port) {
  sockaddr_in address{};
  socklen_t size = sizeof address;
  char text[INET_ADDRSTRLEN] = "";
  if (get_name(socket, reinterpret_cast<sockaddr*>(&address), &size) == 0 && address.sin_family == AF_INET)
    inet_ntop(AF_INET, &address.sin_addr, text, sizeof text);
  ip = text;
  port = ntohs(address.sin_port);
}
}  // namespace

GatedStream::GatedStream(int socket, std::string received, std::chrono::milliseconds wait)
    : socket_(socket), received_(std::move(received)), wait_(wait) {}

bool GatedStream::wait_for(short events) const {
  Clock::time_point deadline = Clock::now() + wait_;
  for (;;) {
    auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
    pollfd fd = {socket_, events, 0};
    int ready = poll(&fd, 1, static_cast<int>(std::max<decltype(left)>(0, left)));
    if (ready > 0) return true;
    if (ready == 0 || errno != EINTR) return false;
  }
}

bool GatedStream::is_readable() const { return offset_ < received_.size() || wait_for(POLLIN); }

bool GatedStream::is_writable() const { return wait_for(POLLOUT); }

ssize_t GatedStream::read(char* ptr, size_t size) {
  if (offset_ < received_.size()) {
    size_t taken = std::min(size, received_.size() - offset_);
    std::memcpy(ptr, received_.data() + offset_, taken);
    offset_ += taken;
    return static_cast<ssize_t>(taken);
  }
  for (;;) {
    if (!wait_for(POLLIN)) return -1;
    ssize_t got = recv(socket_, ptr, size, 0);
    if (got >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) return got;
  }
}

ssize_t GatedStream::write(const char* ptr, size_t size) {
  for (;;) {
    if (!wait_for(POLLOUT)) return -1;
    ssize_t sent = send(socket_, ptr, size, MSG_NOSIGNAL);
    if (sent >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) return sent;
  }
}

void GatedStream::get_remote_ip_and_port(std::string& ip, int& port) const {
  address_of(socket_, getpeername, ip, port);
}

void GatedStream::get_local_ip_and_port(std::string& ip, int& port) const {
  address_of(socket_, getsockname, ip, port);
}

}  // namespace judge
