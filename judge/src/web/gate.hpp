// The front door of `judge serve`: one thread that listens on the loopback
// port, accepts every connection and reads request heads without blocking,
// within bounds of size and time (web/head.hpp), so that a client without
// the token costs the server a few KiB and a file descriptor for a few
// seconds, never one of the workers that answer requests. A complete head
// the server admits goes to a worker with the bytes read so far; after the
// answer the connection comes back to wait for its next request, whose
// head is read and judged the same way. docs/web.md gives the figures.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "web/guard.hpp"
#include "web/head.hpp"

namespace judge {

struct WebLimits {
  HeadBounds head;  // 8 KiB and 64 lines: more is 431
  // From a connection's start, or from the end of its previous answer, to
  // the last byte of the next request head: an idle connection is closed
  // then, one that began a head is answered 408.
  std::chrono::milliseconds head_time{5000};
  // Connections that have not had a request admitted: when a new one would
  // be one too many, the oldest of them is closed.
  std::size_t waiting_connections = 128;
  // Connections that have had a request admitted and wait for the next one
  // (keep-alive): beyond this, the oldest is closed.
  std::size_t idle_connections = 16;
  // Requests admitted and not yet answered (being answered or queued for a
  // worker): one more is refused with 503.
  std::size_t busy_requests = 32;
  std::size_t workers = 8;  // requests answered at once
  // Requests on one connection; the last is answered with Connection: close.
  std::size_t requests_per_connection = 100;
  // The body of a request to an API route that takes one (the server
  // refuses a larger one with 413; other routes take none).
  std::size_t body_bytes = 1 << 20;
  // A worker's wait for each read and write of an admitted request.
  std::chrono::milliseconds io_time{5000};
};

// A request the gate admitted, for a worker to answer.
struct AdmittedRequest {
  int socket = -1;        // the connection; the gate's, not to be closed
  std::string received;   // the bytes read from it so far: the head, perhaps more
  std::size_t head_size;  // the head's bytes at the start of `received`
  RequestHead head;       // what the head says
  bool last = false;      // the connection's last request: answer with Connection: close
};

class WebGate {
 public:
  // Decides on a complete head: 200 hands the request to a worker; any
  // other status is sent back with {"error": reason} and the connection is
  // closed. Called on the gate's thread: it must not block.
  using Admit = std::function<WebAdmission(const RequestHead&)>;
  // Answers one admitted request on a worker thread (see AdmittedRequest).
  // Returns the bytes it read past the request (the start of the next one)
  // to keep the connection, nullopt to close it. Does not close the socket.
  using Answer = std::function<std::optional<std::string>(AdmittedRequest request)>;

  // Throws JudgeFault when its wake-up eventfd cannot be made.
  WebGate(WebLimits limits, Admit admit, Answer answer);
  ~WebGate();  // closes the listening socket
  WebGate(const WebGate&) = delete;
  WebGate& operator=(const WebGate&) = delete;

  // Listens on 127.0.0.1:`port`, or on a free port when `port` is 0.
  // Returns the port, or -1 when it cannot be had (in use).
  int bind(int port);
  // The socket bind() opened; -1 before, or once run() has ended.
  int listening_socket() const;

  // Serves on the calling thread until stop(); then closes every
  // connection and waits for the requests being answered. Call after a
  // successful bind().
  void run();
  // Makes run() return; from any thread, once.
  void stop();

 private:
  struct Loop;
  std::unique_ptr<Loop> loop_;
};

}  // namespace judge
