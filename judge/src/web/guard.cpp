// The admission rules of `judge serve` (web/guard.hpp).
#include "web/guard.hpp"

#include <fmt/format.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <algorithm>
#include <cctype>
#include <string_view>

#include "util/errors.hpp"

namespace judge {
namespace {
std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

// The value of cookie `name` in a Cookie header ("a=1; b=2"); empty when absent.
std::string cookie_value(std::string_view header, const std::string& name) {
  while (!header.empty()) {
    std::size_t end = header.find(';');
    std::string_view pair = header.substr(0, end);
    while (!pair.empty() && pair.front() == ' ') pair.remove_prefix(1);
    if (pair.size() > name.size() && pair.substr(0, name.size()) == name && pair[name.size()] == '=')
      return std::string(pair.substr(name.size() + 1));
    if (end == std::string_view::npos) break;
    header.remove_prefix(end + 1);
  }
  return "";
}

// Compares in time independent of where the strings first differ.
bool same_token(const std::string& given, const std::string& token) {
  return given.size() == token.size() && CRYPTO_memcmp(given.data(), token.data(), token.size()) == 0;
}

bool is_own_host(const std::string& host, int port) {
  std::string name = lowercase(host);
  return name == fmt::format("127.0.0.1:{}", port) || name == fmt::format("localhost:{}", port);
}

bool is_own_origin(const std::string& origin, int port) {
  std::string name = lowercase(origin);
  return name == fmt::format("http://127.0.0.1:{}", port) || name == fmt::format("http://localhost:{}", port);
}
}  // namespace

WebAdmission admit_web_request(const WebAccess& access, const WebRequestFacts& request) {
  if (!is_own_host(request.host, access.port))
    return {403, fmt::format("Host must be 127.0.0.1:{} or localhost:{}", access.port, access.port)};
  if (request.origin && !is_own_origin(*request.origin, access.port))
    return {403, "requests from other origins are refused"};
  const std::string cookie = cookie_value(request.cookie, page_cookie_name(access.port));
  const bool changes = request.method != "GET" && request.method != "HEAD";
  if (changes) {
    if (request.header_token.empty())
      return {request.query_token.empty() && cookie.empty() ? 401 : 403,
              "a request that changes something must carry the token in the X-Judge-Token header"};
    if (!same_token(request.header_token, access.token)) return {403, "wrong token"};
    return {200, "", false, true};
  }
  // ?token= first: a fresh URL wins over the header of a page an earlier
  // server on this port left open, and over its cookie.
  const std::string& given = !request.query_token.empty() ? request.query_token : request.header_token;
  if (!given.empty()) {
    if (!same_token(given, access.token)) return {403, "wrong token"};
    return {200, "", !request.query_token.empty(), true};
  }
  if (cookie.empty() || request.path.rfind("/api/", 0) == 0)
    return {401, "the token is missing: open the URL `judge serve` printed, with its ?token="};
  if (!same_token(cookie, access.page_key))
    return {403, "the page's cookie is from an earlier `judge serve`: open the URL it printed, with its ?token="};
  return {200, ""};
}

std::string page_cookie_name(int port) { return fmt::format("judge_page_{}", port); }

std::string page_cookie(const WebAccess& access) {
  return fmt::format("{}={}; Path=/; HttpOnly; SameSite=Strict", page_cookie_name(access.port), access.page_key);
}

std::string new_web_token() {
  unsigned char bytes[32];
  if (RAND_bytes(bytes, sizeof bytes) != 1) throw JudgeFault{"serve: RAND_bytes could not make a token"};
  std::string hex;
  for (unsigned char byte : bytes) hex += fmt::format("{:02x}", byte);
  return hex;
}

}  // namespace judge
