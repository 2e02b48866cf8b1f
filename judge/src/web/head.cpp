// Request heads for the gate of `judge serve` (web/head.hpp).
#include "web/head.hpp"

#include <fmt/format.h>
#include <httplib.h>

#include <algorithm>
#include <cctype>

namespace judge {
namespace {
std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// "METHOD /path?query HTTP/1.1": the method, the path and ?token=, read as
// the server reads them (its own URL decoding and query parser).
bool read_request_line(std::string_view line, RequestHead* head) {
  const std::size_t first = line.find(' ');
  const std::size_t second = first == std::string_view::npos ? first : line.find(' ', first + 1);
  if (second == std::string_view::npos || line.find(' ', second + 1) != std::string_view::npos) return false;
  std::string_view method = line.substr(0, first);
  std::string_view target = line.substr(first + 1, second - first - 1);
  std::string_view version = line.substr(second + 1);
  if (method.empty() || !std::all_of(method.begin(), method.end(), [](unsigned char c) { return std::isupper(c); }))
    return false;
  if (target.empty() || target.front() != '/' || (version != "HTTP/1.1" && version != "HTTP/1.0")) return false;
  head->method = std::string(method);
  head->facts.method = head->method;
  const std::size_t query = target.find('?');
  head->path = httplib::detail::decode_url(std::string(target.substr(0, query)), false);
  head->facts.path = head->path;
  if (query != std::string_view::npos) {
    httplib::Params params;
    httplib::detail::parse_query_text(std::string(target.substr(query + 1)), params);
    auto token = params.equal_range("token").first;
    if (token != params.end() && token->first == "token") head->facts.query_token = token->second;
  }
  return true;
}

// The headers the guard and the body limit read; the first of each counts.
bool read_headers(const httplib::Headers& headers, RequestHead* head, std::string* error) {
  auto first = [&headers](const char* name) -> std::optional<std::string> {
    auto found = headers.find(name);
    if (found == headers.end()) return std::nullopt;
    return found->second;
  };
  head->facts.host = first("Host").value_or("");
  head->facts.origin = first("Origin");
  head->facts.header_token = first("X-Judge-Token").value_or("");
  head->facts.cookie = first("Cookie").value_or("");
  head->chunked = first("Transfer-Encoding").has_value();
  if (std::optional<std::string> length = first("Content-Length")) {
    const bool digits = !length->empty() && length->size() <= 18 &&
                        std::all_of(length->begin(), length->end(), [](unsigned char c) { return std::isdigit(c); });
    if (!digits) {
      *error = "Content-Length is not a number";
      return false;
    }
    head->content_length = std::stoull(*length);
  }
  return true;
}
}  // namespace

HeadScanner::State HeadScanner::advance(std::string_view received) {
  if (state_ != State::kIncomplete) return state_;
  const std::size_t end = std::min(received.size(), bounds_.bytes);
  for (; scanned_ < end; ++scanned_) {
    if (received[scanned_] != '\n') continue;
    if (scanned_ == 0 || received[scanned_ - 1] != '\r') return state_ = State::kMalformed;
    const bool blank = scanned_ - 1 == line_start_;
    line_start_ = scanned_ + 1;
    if (blank) {
      ++scanned_;
      return state_ = lines_ == 0 ? State::kMalformed : State::kComplete;
    }
    if (++lines_ > bounds_.lines) return state_ = State::kTooManyLines;
  }
  if (scanned_ >= bounds_.bytes) state_ = State::kTooLong;
  return state_;
}

std::optional<RequestHead> parse_request_head(std::string_view head, std::string* error) {
  RequestHead parsed;
  httplib::Headers headers;
  std::size_t number = 0;
  while (!head.empty()) {
    const std::size_t end = head.find("\r\n");
    std::string_view line = head.substr(0, end);
    head.remove_prefix(end == std::string_view::npos ? head.size() : end + 2);
    if (line.empty()) break;  // the blank line that ends the head
    ++number;
    if (number == 1) {
      if (!read_request_line(line, &parsed)) {
        *error = "malformed request line";
        return std::nullopt;
      }
      continue;
    }
    const std::size_t colon = line.find(':');
    std::string_view name = line.substr(0, colon);
    if (colon == std::string_view::npos || name.empty() || name.find_first_of(" \t") != std::string_view::npos) {
      *error = fmt::format("malformed header line {}", number);
      return std::nullopt;
    }
    headers.emplace(std::string(name), std::string(trimmed(line.substr(colon + 1))));
  }
  if (number == 0) {
    *error = "malformed request line";
    return std::nullopt;
  }
  if (!read_headers(headers, &parsed, error)) return std::nullopt;
  return parsed;
}

}  // namespace judge
