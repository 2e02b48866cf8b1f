// Who may talk to `judge serve`. The page compiles and runs code, so a
// request is admitted only when it comes to the loopback address under its
// own name (Host: no DNS rebinding), from the page itself or no page at all
// (Origin: no other web site), and carries the random token printed at
// start (no other local user), the way Jupyter guards its notebooks.
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
  std::string host;                   // the Host header; empty when absent
  std::optional<std::string> origin;  // the Origin header, when sent
  std::string query_token;            // ?token=...
  std::string header_token;           // X-Judge-Token
  std::string cookie;                 // the Cookie header, whole
};

struct WebAdmission {
  int status = 200;         // 200 admitted; 401 no token; 403 refused
  std::string reason;       // why not, for the response body
  bool set_cookie = false;  // admitted by ?token=: the reply sets the token cookie
};

// The server's side: its port and its token.
struct WebAccess {
  int port = 0;
  std::string token;
};

// Admits or refuses a request:
// - Host must be 127.0.0.1:PORT or localhost:PORT (403 otherwise);
// - an Origin, when sent, must be http://127.0.0.1:PORT or
//   http://localhost:PORT (403 otherwise, "null" included);
// - the token comes from ?token=, the X-Judge-Token header or the cookie
//   (token_cookie_name); none gives 401, a wrong one 403;
// - a request that may change something (any method but GET and HEAD)
//   must carry it in X-Judge-Token: a cookie is sent by the browser on its
//   own, a header only by the page's script (403 otherwise).
WebAdmission admit_web_request(const WebAccess& access, const WebRequestFacts& request);

// "judge_token_PORT": cookies ignore ports, so each server names its own.
std::string token_cookie_name(int port);

// The cookie that holds the token after the first load: HttpOnly (no
// script reads it), SameSite=Strict (no other site's page sends it).
std::string token_cookie(const WebAccess& access);

// 32 random bytes from OpenSSL's CSPRNG, as 64 hex digits. Throws
// JudgeFault when the generator fails.
std::string new_web_token();

}  // namespace judge
