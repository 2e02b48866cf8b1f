// Who may talk to `judge serve`. The page compiles and runs code, so a
// request is admitted only when it comes to the loopback address under its
// own name (Host: no DNS rebinding), from the page itself or no page at all
// (Origin: no other web site), and carries the random token printed at
// start (no other local user), the way Jupyter guards its notebooks. The
// page's cookie holds a second key, not the token, that opens only the
// page's own files: a browser sends the cookies of 127.0.0.1 to every port
// of it, so to another user's server on another port as well.
//
// Pure functions of the request's headers, so the rules are tested without
// a server (tests/serve_test.cpp).
#pragma once

#include <optional>
#include <string>

namespace judge {

// What the guard reads from a request.
struct WebRequestFacts {
  std::string method;                 // "GET", "POST", ...
  std::string path;                   // "/api/problems": what the page cookie may open
  std::string host;                   // the Host header; empty when absent
  std::optional<std::string> origin;  // the Origin header, when sent
  std::string query_token;            // ?token=...
  std::string header_token;           // X-Judge-Token
  std::string cookie;                 // the Cookie header, whole
};

struct WebAdmission {
  int status = 200;         // 200 admitted; 401 no token; 403 refused
  std::string reason;       // why not, for the response body
  bool set_cookie = false;  // admitted by ?token=: the reply sets the page cookie
  bool by_token = false;    // admitted by the token itself, not by the page cookie
};

// The server's side: its port, its token, and the key its page cookie holds.
struct WebAccess {
  int port = 0;
  std::string token;
  std::string page_key;  // new_web_token(), apart from the token
};

// Admits or refuses a request:
// - Host must be 127.0.0.1:PORT or localhost:PORT (403 otherwise);
// - an Origin, when sent, must be http://127.0.0.1:PORT or
//   http://localhost:PORT (403 otherwise, "null" included);
// - the token comes from ?token= or the X-Judge-Token header; else the
//   page cookie (page_cookie_name) with the page key admits a GET or HEAD
//   of the page's files, any path but /api/ (401 for the API). Nothing
//   gives 401, a wrong token or key 403;
// - a request that may change something (any method but GET and HEAD)
//   must carry the token in X-Judge-Token: a cookie is sent by the browser
//   on its own, a header only by the page's script (403 otherwise).
WebAdmission admit_web_request(const WebAccess& access, const WebRequestFacts& request);

// "judge_page_PORT": cookies ignore ports, so each server names its own.
std::string page_cookie_name(int port);

// The cookie the first load sets, for the page's scripts, styles and
// reloads: the page key, HttpOnly (no script reads it), SameSite=Strict
// (no other site's page sends it).
std::string page_cookie(const WebAccess& access);

// 32 random bytes from OpenSSL's CSPRNG, as 64 hex digits. Throws
// JudgeFault when the generator fails.
std::string new_web_token();

}  // namespace judge
