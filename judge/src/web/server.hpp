// The HTTP side of `judge serve`: on the loopback address, every request
// head read within bounds and judged by the gate (web/gate.hpp, with the
// guard of web/guard.hpp) before cpp-httplib answers it: the page's own
// files (web/), the editor and formula libraries from the system's
// packages, and the API (web/api.hpp). docs/web.md describes it for people.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "util/paths.hpp"
#include "web/gate.hpp"

namespace judge {

struct WebServerSettings {
  Paths paths;
  std::string token;    // what every request must carry (new_web_token())
  std::string web_dir;  // the page's files: index.html, app.js, style.css
  WebLimits limits;     // what a request and a connection may cost
};

class WebServer {
 public:
  explicit WebServer(WebServerSettings settings);
  ~WebServer();

  // Binds 127.0.0.1:`port`, or any free port when `port` is 0. Returns the
  // bound port; -1 when the port cannot be had (in use).
  int bind(int port);

  // Serves until stop() (from another thread) or the process ends, then
  // waits for the requests being answered. Call after a successful bind().
  void serve();
  void stop();

  // System packages whose files the page uses but that are missing here,
  // with what the page loses ("libjs-katex: formulas are shown as text").
  std::vector<std::string> missing_assets() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace judge
