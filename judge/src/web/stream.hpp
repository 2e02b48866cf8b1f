// An admitted request's connection as cpp-httplib reads and writes it: the
// bytes the gate of `judge serve` read already (web/gate.hpp) come first,
// then the socket's, each read and each write waiting at most a set time.
#pragma once

#include <httplib.h>

#include <chrono>
#include <string>

namespace judge {

class GatedStream : public httplib::Stream {
 public:
  // `socket`: non-blocking, not owned (the gate closes it). `received`:
  // what was read from it so far. `wait`: the longest a read or a write
  // waits for the socket; then it fails.
  GatedStream(int socket, std::string received, std::chrono::milliseconds wait);

  bool is_readable() const override;
  bool is_writable() const override;
  // -1 on an error or after `wait` without a byte; 0 at the end.
  ssize_t read(char* ptr, size_t size) override;
  ssize_t write(const char* ptr, size_t size) override;
  void get_remote_ip_and_port(std::string& ip, int& port) const override;
  void get_local_ip_and_port(std::string& ip, int& port) const override;
  socket_t socket() const override { return socket_; }

  // The bytes received and not read yet: the start of the next request.
  std::string unread() const { return received_.substr(offset_); }

 private:
  bool wait_for(short events) const;

  int socket_;
  std::string received_;
  std::size_t offset_ = 0;
  std::chrono::milliseconds wait_;
};

}  // namespace judge
