// `judge serve`'s HTTP server (web_server.hpp): routes, the guard before
// every route, the page's files and the system's JavaScript libraries, and
// server-sent events for a judging.
#include "cli/web_server.hpp"

#include <fmt/format.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <filesystem>
#include <map>
#include <mutex>

#include "cli/web_api.hpp"
#include "cli/web_guard.hpp"
#include "spec/package.hpp"
#include "spec/result_codec.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"
#include "util/text.hpp"

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
    {"/vendor/codemirror", "/usr/share/javascript/codemirror", "libjs-codemirror",
     "the editor is a plain text area"},
    {"/vendor/katex", "/usr/share/javascript/katex", "libjs-katex", "formulas are shown as their TeX"},
    {"/vendor/markdown-it", "/usr/share/javascript/markdown-it", "libjs-markdown-it",
     "statements are shown as plain text"},
};

// The page's scripts and styles come only from the server itself; KaTeX
// and CodeMirror set style attributes, and KaTeX's fonts may be data: URLs.
constexpr const char* kPagePolicy =
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

// Where index.html receives the token, for the page's script to send in
// X-Judge-Token (the cookie is HttpOnly).
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

// A socket of its own on the port: SO_REUSEADDR (a restarted server binds
// at once) but not SO_REUSEPORT, which would let a second server share it.
void own_port_socket_options(int socket) {
  int yes = 1;
  setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
}

WebRequestFacts facts_of(const httplib::Request& req) {
  WebRequestFacts facts;
  facts.method = req.method;
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
  httplib::Server server;
  ProblemLocks locks;

  void guard_every_request() {
    server.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
      WebAdmission admission = admit_web_request(access, facts_of(req));
      if (admission.status != 200) {
        fmt::print(stderr, "judge serve: refused {} {}: {}\n", req.method, terminal_safe(req.path), admission.reason);
        reply(res, {admission.status, {{"error", admission.reason}}});
        return httplib::Server::HandlerResponse::Handled;
      }
      if (admission.set_cookie) res.set_header("Set-Cookie", token_cookie(access));
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
    server.Get("/", [this](const httplib::Request&, httplib::Response& res) {
      std::optional<std::string> page = read_file((fs::path(settings.web_dir) / "index.html").string());
      if (!page) return reply(res, {500, {{"error", "the page's index.html is missing from " + settings.web_dir}}});
      std::size_t at = page->find(kTokenPlaceholder);
      if (at != std::string::npos) page->replace(at, std::string(kTokenPlaceholder).size(), access.token);
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
    server.Get("/api/problems", [&](const httplib::Request&, httplib::Response& res) { reply(res, api_problems(paths)); });
    server.Get("/api/problems" + slug, [&](const httplib::Request& req, httplib::Response& res) {
      reply(res, api_problem(paths, req.matches[1]));
    });
    server.Get("/api/workspace" + slug, [&](const httplib::Request& req, httplib::Response& res) {
      reply(res, api_read_workspace(paths, req.matches[1]));
    });
    server.Put("/api/workspace" + slug, [&](const httplib::Request& req, httplib::Response& res) {
      reply(res, api_write_workspace(paths, req.matches[1], req.body));
    });
    server.Get("/api/history" + slug, [&](const httplib::Request& req, httplib::Response& res) {
      reply(res, api_history(paths, req.matches[1]));
    });
    server.Get("/api/solution" + slug, [&](const httplib::Request& req, httplib::Response& res) {
      reply(res, api_solution(paths, req.matches[1], req.get_param_value("force") == "1"));
    });
    server.Post("/api/try" + slug, [&](const httplib::Request& req, httplib::Response& res) {
      std::lock_guard<std::mutex> judging(locks.of(req.matches[1]));
      reply(res, api_try(paths, req.matches[1], req.body));
    });
    server.Post("/api/run" + slug, [&](const httplib::Request& req, httplib::Response& res) { run(req, res); });
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
  state_->settings = std::move(settings);
  state_->access.token = state_->settings.token;
  state_->server.set_socket_options(own_port_socket_options);
  state_->server.set_payload_max_length(2 << 20);
  state_->guard_every_request();
  state_->serve_files();
  state_->serve_api();
}

WebServer::~WebServer() = default;

int WebServer::bind(int port) {
  if (port == 0) {
    port = state_->server.bind_to_any_port("127.0.0.1");
    if (port < 0) return -1;
  } else if (!state_->server.bind_to_port("127.0.0.1", port)) {
    return -1;
  }
  state_->access.port = port;
  return port;
}

void WebServer::serve() { state_->server.listen_after_bind(); }

void WebServer::stop() { state_->server.stop(); }

std::vector<std::string> WebServer::missing_assets() const {
  std::vector<std::string> missing;
  for (const SystemAssets& assets : kSystemAssets)
    if (!fs::is_directory(assets.dir)) missing.push_back(fmt::format("{} ({})", assets.package, assets.without));
  return missing;
}

}  // namespace judge
