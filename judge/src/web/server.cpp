// `judge serve`'s HTTP server (web/server.hpp): the gate in front
// (web/gate.hpp), which reads each request head and admits it; then
// cpp-httplib on a worker: the guard again before every route, the routes,
// the page's files and the system's JavaScript libraries, and server-sent
// events for a judging.
#include "web/server.hpp"

#include <fmt/format.h>
#include <httplib.h>

#include <filesystem>
#include <map>
#include <mutex>

#include "package/layout.hpp"
#include "package/result_codec.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"
#include "util/text.hpp"
#include "web/api.hpp"
#include "web/gate.hpp"
#include "web/guard.hpp"
#include "web/lab_api.hpp"
#include "web/stream.hpp"

namespace judge {
namespace fs = std::filesystem;
using nlohmann::json;
namespace {
// The libraries the page loads from Debian's packages, never the network.
struct SystemAssets {
  const char* mount;    // where the page asks for them
  const char* dir;      // where the package puts them
  const char* package;  // what to install
  const char* without;  // what the page does without them
};
constexpr SystemAssets kSystemAssets[] = {
    {"/vendor/codemirror", "/usr/share/javascript/codemirror", "libjs-codemirror", "the editor is a plain text area"},
    {"/vendor/katex", "/usr/share/javascript/katex", "libjs-katex", "formulas are shown as their TeX"},
    {"/vendor/markdown-it", "/usr/share/javascript/markdown-it", "libjs-markdown-it",
     "statements are shown as plain text"},
    {"/vendor/chart.js", "/usr/share/javascript/chart.js", "libjs-chart.js",
     "the Lab shows no charts of the distributions"},
};

// The page's scripts and styles come only from the server itself; KaTeX
// and CodeMirror set style attributes, and KaTeX's fonts may be data: URLs.
constexpr const char* kPagePolicy =
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

// Where index.html receives the token, for the page's script to send in
// X-Judge-Token and keep for this port (the cookie holds another key);
// left empty when the page is loaded by the cookie alone.
constexpr const char* kTokenPlaceholder = "__JUDGE_TOKEN__";

// One judging per problem at a time: a second waits for the first.
class ProblemLocks {
 public:
  std::mutex& of(const std::string& slug) {
    std::lock_guard<std::mutex> guard(mutex_);
    std::unique_ptr<std::mutex>& lock = locks_[slug];
    if (!lock) lock = std::make_unique<std::mutex>();
    return *lock;
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<std::mutex>> locks_;
};

void reply(httplib::Response& res, const ApiReply& answer) {
  res.status = answer.status;
  res.set_content(json_text(answer.body), "application/json");
}

// The API routes that take a body; every other request comes without one.
constexpr const char* kWorkspaceRoute = "/api/workspace";
constexpr const char* kTryRoute = "/api/try";
constexpr const char* kLabRoute = "/api/lab";

bool takes_body(const RequestHead& head) {
  auto under = [&head](const char* route) { return head.path.rfind(std::string(route) + "/", 0) == 0; };
  return (head.method == "PUT" && under(kWorkspaceRoute)) || (head.method == "POST" && under(kTryRoute)) ||
         (head.method == "POST" && head.path == kLabRoute);
}

// The methods cpp-httplib reads a body for: when the head gives no length,
// to the end of the connection, whatever it holds.
bool reads_body(const std::string& method) {
  return method == "POST" || method == "PUT" || method == "PATCH" || method == "DELETE";
}

// cpp-httplib without its listener and its workers: the gate reads each
// request head and hands the admitted ones over, one at a time.
class GatedHttpServer : public httplib::Server {
 public:
  // Answers an admitted request: the unread rest when the connection stays
  // open, nullopt when it closes. A request without a length has no body
  // (RFC 9112), which cpp-httplib is told in so many words.
  std::optional<std::string> answer(AdmittedRequest request, std::chrono::milliseconds wait) {
    if (reads_body(request.head.method) && !request.head.content_length)
      request.received.insert(request.head_size - 2, "Content-Length: 0\r\n");
    GatedStream stream(request.socket, std::move(request.received), wait);
    bool closed = false;
    if (!process_request(stream, request.last, closed, nullptr) || closed || request.last) return std::nullopt;
    return stream.unread();
  }

  // cpp-httplib streams a response (a judging's events) only while its
  // listening socket is open: the gate's stands in for it, -1 once closed.
  void listening_on(int socket) { svr_sock_ = socket; }
};

WebRequestFacts facts_of(const httplib::Request& req) {
  WebRequestFacts facts;
  facts.method = req.method;
  facts.path = req.path;
  facts.host = req.get_header_value("Host");
  if (req.has_header("Origin")) facts.origin = req.get_header_value("Origin");
  facts.query_token = req.get_param_value("token");
  facts.header_token = req.get_header_value("X-Judge-Token");
  facts.cookie = req.get_header_value("Cookie");
  return facts;
}

std::string event_frame(const std::string& event, const json& data) {
  return fmt::format("event: {}\ndata: {}\n\n", event, json_text(data));
}
}  // namespace

struct WebServer::State {
  WebServerSettings settings;
  WebAccess access;
  GatedHttpServer server;
  ProblemLocks locks;
  std::mutex lab_lock;  // the lab's runners are many; one lab runs at a time
  std::unique_ptr<WebGate> gate;

  // The gate's decision on a complete head: the guard, then the body, which
  // must announce its length (cpp-httplib would read a chunked one to its
  // end, whatever its size), and fit.
  WebAdmission admit(const RequestHead& head) const {
    WebAdmission admission = admit_web_request(access, head.facts);
    if (admission.status != 200) return admission;
    if (head.chunked) return {411, "a request body must come with a Content-Length, not chunked"};
    const std::uint64_t length = head.content_length.value_or(0);
    const std::size_t allowed = takes_body(head) ? settings.limits.body_bytes : 0;
    if (allowed == 0 && length > 0)
      return {413, fmt::format("{} {} takes no body", head.method, terminal_safe(head.path))};
    if (length > allowed) return {413, fmt::format("the body is over {} bytes", allowed)};
    return admission;
  }

  void guard_every_request() {
    server.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
      WebAdmission admission = admit_web_request(access, facts_of(req));
      if (admission.status != 200) {
        fmt::print(stderr, "judge serve: refused {} {}: {}\n", req.method, terminal_safe(req.path), admission.reason);
        reply(res, {admission.status, {{"error", admission.reason}}});
        return httplib::Server::HandlerResponse::Handled;
      }
      if (admission.set_cookie) res.set_header("Set-Cookie", page_cookie(access));
      return httplib::Server::HandlerResponse::Unhandled;
    });
    server.set_default_headers({{"X-Content-Type-Options", "nosniff"},
                                {"Referrer-Policy", "no-referrer"},
                                {"X-Frame-Options", "DENY"},
                                {"Cache-Control", "no-store"}});
    server.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr error) {
      std::string what = "internal error";
      try {
        std::rethrow_exception(error);
      } catch (const JudgeFault& fault) {
        what = fault.message;
      } catch (const std::exception& exception) {
        what = std::string("internal error: ") + exception.what();
      } catch (...) {
      }
      reply(res, {500, {{"error", what}}});
    });
  }

  void serve_files() {
    server.Get("/", [this](const httplib::Request& req, httplib::Response& res) {
      std::optional<std::string> page = read_file((fs::path(settings.web_dir) / "index.html").string());
      if (!page) return reply(res, {500, {{"error", "the page's index.html is missing from " + settings.web_dir}}});
      const bool by_token = admit_web_request(access, facts_of(req)).by_token;
      std::size_t at = page->find(kTokenPlaceholder);
      if (at != std::string::npos)
        page->replace(at, std::string(kTokenPlaceholder).size(), by_token ? access.token : "");
      res.set_header("Content-Security-Policy", kPagePolicy);
      res.set_content(*page, "text/html; charset=utf-8");
    });
    server.set_mount_point("/static", settings.web_dir);
    for (const SystemAssets& assets : kSystemAssets)
      if (fs::is_directory(assets.dir)) server.set_mount_point(assets.mount, assets.dir);
  }

  void serve_api() {
    const Paths& paths = settings.paths;
    const std::string slug = "/([^/]+)";
    server.Get("/api/problems",
               [&](const httplib::Request&, httplib::Response& res) { reply(res, api_problems(paths)); });
    server.Get("/api/problems" + slug, [&](const httplib::Request& req, httplib::Response& res) {
      reply(res, api_problem(paths, req.matches[1]));
    });
    server.Get(kWorkspaceRoute + slug, [&](const httplib::Request& req, httplib::Response& res) {
      reply(res, api_read_workspace(paths, req.matches[1]));
    });
    server.Put(kWorkspaceRoute + slug, [&](const httplib::Request& req, httplib::Response& res) {
      reply(res, api_write_workspace(paths, req.matches[1], req.body));
    });
    server.Get("/api/history" + slug, [&](const httplib::Request& req, httplib::Response& res) {
      reply(res, api_history(paths, req.matches[1]));
    });
    server.Get("/api/solution" + slug, [&](const httplib::Request& req, httplib::Response& res) {
      reply(res, api_solution(paths, req.matches[1], req.get_param_value("force") == "1"));
    });
    server.Post(kTryRoute + slug, [&](const httplib::Request& req, httplib::Response& res) {
      std::lock_guard<std::mutex> judging(locks.of(req.matches[1]));
      reply(res, api_try(paths, req.matches[1], req.body));
    });
    server.Post("/api/run" + slug, [&](const httplib::Request& req, httplib::Response& res) { run(req, res); });
    server.Post(kLabRoute, [&](const httplib::Request& req, httplib::Response& res) { lab(req, res); });
  }

  // The lab streams as server-sent events, token by token; one lab at a time.
  void lab(const httplib::Request& req, httplib::Response& res) {
    const std::string body = req.body;
    res.set_chunked_content_provider("text/event-stream", [this, body](std::size_t, httplib::DataSink& sink) {
      EventSink send = [&sink](const std::string& event, const json& data) {
        std::string frame = event_frame(event, data);
        sink.write(frame.data(), frame.size());
      };
      std::lock_guard<std::mutex> one_lab(lab_lock);
      api_lab(settings.paths, body, send);
      sink.done();
      return true;
    });
  }

  // The judging streams as server-sent events, case by case.
  void run(const httplib::Request& req, httplib::Response& res) {
    std::string problem = req.matches[1];
    if (!is_problem(settings.paths, problem))
      return reply(res, {404, {{"error", fmt::format("unknown problem '{}'", problem)}}});
    res.set_chunked_content_provider("text/event-stream", [this, problem](std::size_t, httplib::DataSink& sink) {
      // A page that went away stops hearing; the judging still ends and is recorded.
      EventSink send = [&sink](const std::string& event, const json& data) {
        std::string frame = event_frame(event, data);
        sink.write(frame.data(), frame.size());
      };
      std::unique_lock<std::mutex> judging(locks.of(problem), std::try_to_lock);
      if (!judging.owns_lock()) {
        send("progress", {{"what", "waiting for the judging of this problem that is still running"}});
        judging.lock();
      }
      api_run(settings.paths, problem, send);
      sink.done();
      return true;
    });
  }
};

WebServer::WebServer(WebServerSettings settings) : state_(std::make_unique<State>()) {
  State& state = *state_;
  state.settings = std::move(settings);
  state.access.token = state.settings.token;
  state.access.page_key = new_web_token();
  const WebLimits& limits = state.settings.limits;
  state.server.set_payload_max_length(limits.body_bytes);
  state.server.set_keep_alive_timeout(std::chrono::ceil<std::chrono::seconds>(limits.head_time).count());
  state.server.set_keep_alive_max_count(limits.requests_per_connection);
  state.guard_every_request();
  state.serve_files();
  state.serve_api();
  state.gate = std::make_unique<WebGate>(
      limits, [&state](const RequestHead& head) { return state.admit(head); },
      [&state](AdmittedRequest request) {
        return state.server.answer(std::move(request), state.settings.limits.io_time);
      });
}

WebServer::~WebServer() = default;

int WebServer::bind(int port) {
  port = state_->gate->bind(port);
  if (port < 0) return -1;
  state_->access.port = port;
  state_->server.listening_on(state_->gate->listening_socket());
  return port;
}

void WebServer::serve() { state_->gate->run(); }

void WebServer::stop() {
  state_->server.listening_on(-1);
  state_->gate->stop();
}

std::vector<std::string> WebServer::missing_assets() const {
  std::vector<std::string> missing;
  for (const SystemAssets& assets : kSystemAssets)
    if (!fs::is_directory(assets.dir)) missing.push_back(fmt::format("{} ({})", assets.package, assets.without));
  return missing;
}

}  // namespace judge
