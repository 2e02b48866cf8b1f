// The gate of `judge serve` (web/gate.hpp): a poll() loop over the
// listening socket, a wake-up eventfd (for answered requests coming back
// from the workers, and for stop()) and the connections waiting for a
// request head. Nothing on this thread blocks.
#include "web/gate.hpp"

#include <fmt/format.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <list>
#include <mutex>
#include <nlohmann/json.hpp>
#include <vector>

#include "util/errors.hpp"
#include "util/text.hpp"

namespace judge {
namespace {
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// A refused connection is read from, and what it still sends dropped, for
// this long, or until this much beyond the body its head announced has
// come: closed with unread bytes it would be reset, and the client, still
// sending, might lose the refusal.
constexpr milliseconds kDrainTime{1000};
constexpr std::size_t kDrainBytes = 64 * 1024;
// Connections accepted per turn of the loop, so the others get theirs.
constexpr int kAcceptsPerTurn = 64;
// Out of file descriptors with nothing to close: the pause before the next accept.
constexpr milliseconds kAcceptPause{100};
// Refusals printed on stderr: a line a second at most, the others counted.
constexpr milliseconds kLogInterval{1000};

const char* reason_phrase(int status) {
  switch (status) {
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 408: return "Request Timeout";
    case 411: return "Length Required";
    case 413: return "Payload Too Large";
    case 431: return "Request Header Fields Too Large";
    case 503: return "Service Unavailable";
    default: return "Error";
  }
}

std::string refusal_response(int status, const std::string& reason) {
  std::string body = nlohmann::json{{"error", reason}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return fmt::format(
      "HTTP/1.1 {} {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n"
      "X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\n\r\n{}",
      status, reason_phrase(status), body.size(), body);
}

bool would_block(ssize_t result) { return result < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR); }

// One connection the gate holds: waiting for a request head, or refused
// and draining.
struct Connection {
  explicit Connection(int socket, const WebLimits& limits, std::size_t answered = 0)
      : socket(socket), scanner(limits.head), answered(answered) {
    restart(limits);
  }
  // Waits for a new head from now on.
  void restart(const WebLimits& limits) {
    scanner = HeadScanner(limits.head);
    deadline = Clock::now() + limits.head_time;
  }

  int socket;
  std::string received;
  HeadScanner scanner;
  Clock::time_point deadline;  // the head's, or the end of the draining
  std::size_t answered;        // requests answered on it
  bool draining = false;       // refused: what it still sends is dropped
  std::uint64_t drain_left = 0;
  bool done = false;  // closed, or handed to a worker: removed at the end of the turn
};
}  // namespace

struct WebGate::Loop {
  WebLimits limits;
  Admit admit;
  Answer answer;
  int listener = -1;
  int wake = -1;
  std::atomic<bool> stopping{false};
  std::list<Connection> waiting;  // never admitted, oldest first
  std::list<Connection> idle;     // admitted before, waiting for their next request, oldest first
  std::atomic<std::size_t> busy{0};
  std::mutex returned_mutex;
  std::vector<Connection> returned;  // answered by a worker, for the gate to take back
  std::unique_ptr<httplib::ThreadPool> workers;
  Clock::time_point accept_paused_until;
  Clock::time_point next_log;
  std::size_t unlogged = 0;

  void wake_up() {
    std::uint64_t one = 1;
    [[maybe_unused]] ssize_t written = write(wake, &one, sizeof one);
  }

  void close(Connection& connection) {
    if (connection.socket >= 0) ::close(connection.socket);
    connection.socket = -1;
    connection.done = true;
  }

  void sweep() {
    for (std::list<Connection>* list : {&waiting, &idle}) list->remove_if([](const Connection& c) { return c.done; });
  }

  void note_refusal(const std::string& reason, const RequestHead* head) {
    Clock::time_point now = Clock::now();
    if (now < next_log) {
      ++unlogged;
      return;
    }
    std::string what = head ? fmt::format("{} {}", head->method, terminal_safe(head->path)) : "a connection";
    std::string more = unlogged ? fmt::format(" (and {} more since the last line)", unlogged) : "";
    fmt::print(stderr, "judge serve: refused {}: {}{}\n", what, reason, more);
    unlogged = 0;
    next_log = now + kLogInterval;
  }

  // Sends the refusal, then only drains the connection until it is closed.
  void refuse(Connection& connection, int status, const std::string& reason, const RequestHead* head = nullptr) {
    note_refusal(reason, head);
    std::string response = refusal_response(status, reason);
    [[maybe_unused]] ssize_t sent = send(connection.socket, response.data(), response.size(), MSG_NOSIGNAL);
    shutdown(connection.socket, SHUT_WR);
    connection.draining = true;
    connection.drain_left = kDrainBytes + (head ? head->content_length.value_or(0) : 0);
    std::string().swap(connection.received);
    connection.deadline = Clock::now() + kDrainTime;
  }

  void drain(Connection& connection) {
    char chunk[4096];
    ssize_t got = recv(connection.socket, chunk, sizeof chunk, 0);
    if (would_block(got)) return;
    if (got <= 0 || static_cast<std::uint64_t>(got) >= connection.drain_left) return close(connection);
    connection.drain_left -= static_cast<std::uint64_t>(got);
  }

  void judge_head(Connection& connection);
  void hand_over(Connection& connection, RequestHead head);
  void come_back(int socket, std::optional<std::string> rest, std::size_t answered);
  void read_head(Connection& connection);
  void take_returned();
  void expire();
  void accept_new();
  int poll_timeout() const;
  void turn();
  void close_all();
};

// A head that is complete, too large or malformed is decided at once.
void WebGate::Loop::judge_head(Connection& connection) {
  switch (connection.scanner.advance(connection.received)) {
    case HeadScanner::State::kIncomplete: return;
    case HeadScanner::State::kTooLong:
      return refuse(connection, 431, fmt::format("the request head is over {} bytes", limits.head.bytes));
    case HeadScanner::State::kTooManyLines:
      return refuse(connection, 431, fmt::format("the request head is over {} lines", limits.head.lines));
    case HeadScanner::State::kMalformed: return refuse(connection, 400, "malformed request head");
    case HeadScanner::State::kComplete: break;
  }
  std::string error;
  std::string_view bytes(connection.received);
  std::optional<RequestHead> head = parse_request_head(bytes.substr(0, connection.scanner.head_size()), &error);
  if (!head) return refuse(connection, 400, error);
  WebAdmission admission = admit(*head);
  if (admission.status != 200) return refuse(connection, admission.status, admission.reason, &*head);
  if (busy >= limits.busy_requests)
    return refuse(connection, 503, "too many requests at once: try again in a moment", &*head);
  hand_over(connection, std::move(*head));
}

void WebGate::Loop::hand_over(Connection& connection, RequestHead head) {
  ++busy;
  AdmittedRequest request{connection.socket, std::move(connection.received), connection.scanner.head_size(),
                          std::move(head), connection.answered + 1 >= limits.requests_per_connection};
  workers->enqueue([this, request = std::move(request), answered = connection.answered]() mutable {
    const int socket = request.socket;
    std::optional<std::string> rest = answer(std::move(request));
    come_back(socket, std::move(rest), answered + 1);
  });
  connection.socket = -1;  // the worker's now
  connection.done = true;
}

// On a worker's thread, once it has answered.
void WebGate::Loop::come_back(int socket, std::optional<std::string> rest, std::size_t answered) {
  {
    std::lock_guard<std::mutex> guard(returned_mutex);
    if (rest && !stopping) {
      returned.emplace_back(socket, limits, answered);
      returned.back().received = std::move(*rest);
    } else {
      ::close(socket);
    }
  }
  --busy;
  wake_up();
}

void WebGate::Loop::read_head(Connection& connection) {
  if (connection.draining) return drain(connection);
  char chunk[4096];
  const std::size_t room = limits.head.bytes - std::min(limits.head.bytes, connection.received.size());
  ssize_t got = room == 0 ? 0 : recv(connection.socket, chunk, std::min(room, sizeof chunk), 0);
  if (would_block(got)) return;
  if (got <= 0) return close(connection);
  connection.received.append(chunk, static_cast<std::size_t>(got));
  judge_head(connection);
}

// Connections back from the workers wait among the idle ones; the bytes a
// worker read past its request may already be the next head.
void WebGate::Loop::take_returned() {
  std::uint64_t count;
  [[maybe_unused]] ssize_t got = read(wake, &count, sizeof count);
  std::vector<Connection> back;
  {
    std::lock_guard<std::mutex> guard(returned_mutex);
    back.swap(returned);
  }
  for (Connection& connection : back) {
    idle.push_back(std::move(connection));
    idle.back().restart(limits);
    if (!idle.back().received.empty()) judge_head(idle.back());
  }
  sweep();
  while (idle.size() > limits.idle_connections) {
    close(idle.front());
    idle.pop_front();
  }
}

void WebGate::Loop::expire() {
  Clock::time_point now = Clock::now();
  for (std::list<Connection>* list : {&waiting, &idle})
    for (Connection& connection : *list) {
      if (connection.done || now < connection.deadline) continue;
      if (connection.draining || connection.received.empty()) {
        close(connection);
      } else {
        refuse(connection, 408,
               fmt::format("the request head did not arrive whole within {} ms", limits.head_time.count()));
      }
    }
  sweep();
}

// Every connection is accepted; when the waiting ones are too many, the
// oldest of them, the one with the longest chance to send its head, goes.
void WebGate::Loop::accept_new() {
  for (int i = 0; i < kAcceptsPerTurn; ++i) {
    int socket = accept4(listener, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (socket < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK) return;
      if (errno == EINTR || errno == ECONNABORTED) continue;
      if (waiting.empty()) {  // out of file descriptors, and none to free
        accept_paused_until = Clock::now() + kAcceptPause;
        return;
      }
      close(waiting.front());
      waiting.pop_front();
      continue;
    }
    if (waiting.size() >= limits.waiting_connections) {
      close(waiting.front());
      waiting.pop_front();
    }
    waiting.emplace_back(socket, limits);
  }
}

int WebGate::Loop::poll_timeout() const {
  Clock::time_point now = Clock::now();
  Clock::time_point next = now + std::chrono::seconds(1);
  for (const std::list<Connection>* list : {&waiting, &idle})
    for (const Connection& connection : *list) next = std::min(next, connection.deadline);
  if (accept_paused_until > now) next = std::min(next, accept_paused_until);
  return static_cast<int>(std::max<std::int64_t>(0, std::chrono::ceil<milliseconds>(next - now).count()));
}

void WebGate::Loop::turn() {
  const bool accepting = Clock::now() >= accept_paused_until;
  std::vector<pollfd> fds = {{wake, POLLIN, 0}, {accepting ? listener : -1, POLLIN, 0}};
  std::vector<Connection*> owners;
  for (std::list<Connection>* list : {&waiting, &idle})
    for (Connection& connection : *list) {
      fds.push_back({connection.socket, POLLIN, 0});
      owners.push_back(&connection);
    }
  // Interrupted, or out of memory for a moment: the next turn tries again.
  if (poll(fds.data(), fds.size(), poll_timeout()) < 0) return;
  for (std::size_t i = 0; i < owners.size(); ++i)
    if (fds[i + 2].revents && !owners[i]->done) read_head(*owners[i]);
  sweep();
  if (fds[0].revents) take_returned();
  expire();
  if (fds[1].revents) accept_new();
}

void WebGate::Loop::close_all() {
  for (std::list<Connection>* list : {&waiting, &idle}) {
    for (Connection& connection : *list) close(connection);
    list->clear();
  }
  std::lock_guard<std::mutex> guard(returned_mutex);
  for (Connection& connection : returned) close(connection);
  returned.clear();
}

WebGate::WebGate(WebLimits limits, Admit admit, Answer answer) : loop_(std::make_unique<Loop>()) {
  loop_->limits = limits;
  loop_->admit = std::move(admit);
  loop_->answer = std::move(answer);
  loop_->wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (loop_->wake < 0) throw JudgeFault{fmt::format("serve: eventfd: {}", std::strerror(errno))};
}

WebGate::~WebGate() {
  if (loop_->listener >= 0) ::close(loop_->listener);
  ::close(loop_->wake);
}

// SO_REUSEADDR (a restarted server binds at once) but not SO_REUSEPORT,
// which would let a second server share the port.
int WebGate::bind(int port) {
  int socket = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (socket < 0) return -1;
  int yes = 1;
  setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof address;
  if (::bind(socket, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || listen(socket, SOMAXCONN) != 0 ||
      getsockname(socket, reinterpret_cast<sockaddr*>(&address), &size) != 0) {
    ::close(socket);
    return -1;
  }
  if (loop_->listener >= 0) ::close(loop_->listener);
  loop_->listener = socket;
  return ntohs(address.sin_port);
}

int WebGate::listening_socket() const { return loop_->listener; }

void WebGate::run() {
  loop_->workers = std::make_unique<httplib::ThreadPool>(loop_->limits.workers);
  while (!loop_->stopping) loop_->turn();
  loop_->close_all();
  loop_->workers->shutdown();  // the requests being answered end; their connections close
  loop_->close_all();
  ::close(loop_->listener);
  loop_->listener = -1;
}

void WebGate::stop() {
  loop_->stopping = true;
  loop_->wake_up();
}

}  // namespace judge
