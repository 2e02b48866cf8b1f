// `judge serve`: the guard's rules on their own (token, Host, Origin) and
// the gate's reading of a request head, then the judge binary serving the
// fixture package `draws` (tests/fixtures/draws) in a scratch root, asked
// over HTTP: refusals without the token, from a foreign Origin or to a
// foreign Host; the problem list; starting, saving and another editor's
// save; a judging streamed as server-sent events (accepted, a wrong answer
// with its failing input, a compile error marked on the learner's line);
// two runs of one problem at once; try, history and the solution once
// solved. Last, the server under attack over raw sockets, as another user
// of the machine without the token would attack it: header floods, heads
// and bodies over their bounds, slow and idle connections by the dozen.
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "package/layout.hpp"
#include "run_judge.hpp"
#include "scratch_root.hpp"
#include "util/files.hpp"
#include "web/api.hpp"
#include "web/gate.hpp"
#include "web/guard.hpp"
#include "web/head.hpp"

namespace judge {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

// ---- the guard's rules ----

const WebAccess kAccess{8421, std::string(64, 'a'), std::string(64, 'p')};
const std::string kToken = kAccess.token;
const std::string kPageKey = kAccess.page_key;

WebRequestFacts get(const std::string& host = "127.0.0.1:8421", const std::string& path = "/") {
  WebRequestFacts facts;
  facts.method = "GET";
  facts.path = path;
  facts.host = host;
  return facts;
}

TEST(WebGuard, TheTokenComesFromTheQueryOrAHeader) {
  EXPECT_EQ(admit_web_request(kAccess, get()).status, 401);
  WebRequestFacts by_query = get();
  by_query.query_token = kToken;
  WebAdmission admitted = admit_web_request(kAccess, by_query);
  EXPECT_EQ(admitted.status, 200);
  EXPECT_TRUE(admitted.set_cookie);
  EXPECT_TRUE(admitted.by_token);
  WebRequestFacts by_header = get("127.0.0.1:8421", "/api/problems");
  by_header.header_token = kToken;
  EXPECT_EQ(admit_web_request(kAccess, by_header).status, 200);
  EXPECT_FALSE(admit_web_request(kAccess, by_header).set_cookie);
  EXPECT_TRUE(admit_web_request(kAccess, by_header).by_token);
}

// The browser sends the page cookie to every port of 127.0.0.1: it holds
// the page key, which opens the page's files and nothing else, never the
// token.
TEST(WebGuard, ThePageCookieOpensThePagesFilesOnlyAndOnlyUnderThisPortsName) {
  for (const char* path : {"/", "/static/app.js", "/vendor/katex/katex.min.js"}) {
    WebRequestFacts by_cookie = get("127.0.0.1:8421", path);
    by_cookie.cookie = "other=1; judge_page_8421=" + kPageKey + "; more=2";
    WebAdmission admitted = admit_web_request(kAccess, by_cookie);
    EXPECT_EQ(admitted.status, 200) << path;
    EXPECT_FALSE(admitted.by_token) << path;
    EXPECT_FALSE(admitted.set_cookie) << path;
  }
  for (const char* path : {"/api/problems", "/api/workspace/draws"}) {
    WebRequestFacts api = get("127.0.0.1:8421", path);
    api.cookie = "judge_page_8421=" + kPageKey;
    EXPECT_EQ(admit_web_request(kAccess, api).status, 401) << path;
  }
  WebRequestFacts token_in_cookie = get();
  token_in_cookie.cookie = "judge_page_8421=" + kToken;
  EXPECT_EQ(admit_web_request(kAccess, token_in_cookie).status, 403);
  for (const char* name : {"judge_page_8422", "judge_page_842", "judge_token_8421"}) {
    WebRequestFacts other_name = get();
    other_name.cookie = std::string(name) + "=" + kPageKey;
    EXPECT_EQ(admit_web_request(kAccess, other_name).status, 401) << name;
  }
  EXPECT_EQ(page_cookie(kAccess), "judge_page_8421=" + kPageKey + "; Path=/; HttpOnly; SameSite=Strict");
}

TEST(WebGuard, AWrongTokenIsRefusedAndAFreshUrlWinsOverAStaleCookie) {
  WebRequestFacts wrong = get();
  wrong.query_token = std::string(64, 'b');
  EXPECT_EQ(admit_web_request(kAccess, wrong).status, 403);
  WebRequestFacts shorter = get();
  shorter.header_token = kToken.substr(1);
  EXPECT_EQ(admit_web_request(kAccess, shorter).status, 403);
  WebRequestFacts stale_cookie = get();
  stale_cookie.cookie = "judge_page_8421=" + std::string(64, 'c');
  EXPECT_EQ(admit_web_request(kAccess, stale_cookie).status, 403);
  stale_cookie.query_token = kToken;
  EXPECT_EQ(admit_web_request(kAccess, stale_cookie).status, 200);
}

TEST(WebGuard, OnlyTheLoopbackNamesWithThePortAreHosts) {
  for (const char* host : {"127.0.0.1:8421", "localhost:8421", "LOCALHOST:8421"}) {
    WebRequestFacts facts = get(host);
    facts.header_token = kToken;
    EXPECT_EQ(admit_web_request(kAccess, facts).status, 200) << host;
  }
  for (const char* host : {"", "127.0.0.1", "127.0.0.1:8422", "evil.example:8421", "127.0.0.1.evil.example:8421",
                           "[::1]:8421", "localhost:8421.evil"}) {
    WebRequestFacts facts = get(host);
    facts.header_token = kToken;
    EXPECT_EQ(admit_web_request(kAccess, facts).status, 403) << host;
  }
}

TEST(WebGuard, AnOriginMustBeThePageItself) {
  for (const char* origin : {"http://127.0.0.1:8421", "http://localhost:8421"}) {
    WebRequestFacts facts = get();
    facts.header_token = kToken;
    facts.origin = origin;
    EXPECT_EQ(admit_web_request(kAccess, facts).status, 200) << origin;
  }
  for (const char* origin : {"null", "http://evil.example", "http://127.0.0.1:8422", "https://127.0.0.1:8421",
                             "http://127.0.0.1:8421.evil.example", ""}) {
    WebRequestFacts facts = get();
    facts.header_token = kToken;
    facts.origin = origin;
    EXPECT_EQ(admit_web_request(kAccess, facts).status, 403) << origin;
  }
}

TEST(WebGuard, AChangeNeedsTheTokenInTheHeaderNotOnlyTheCookie) {
  WebRequestFacts post = get();
  post.method = "POST";
  EXPECT_EQ(admit_web_request(kAccess, post).status, 401);
  post.cookie = "judge_page_8421=" + kPageKey;
  EXPECT_EQ(admit_web_request(kAccess, post).status, 403);
  post.cookie.clear();
  post.query_token = kToken;
  EXPECT_EQ(admit_web_request(kAccess, post).status, 403);
  post.header_token = kToken;
  EXPECT_EQ(admit_web_request(kAccess, post).status, 200);
  post.method = "PUT";
  post.header_token = std::string(64, 'd');
  EXPECT_EQ(admit_web_request(kAccess, post).status, 403);
}

TEST(WebGuard, TokensAre64HexDigitsAndDiffer) {
  std::string first = new_web_token(), second = new_web_token();
  EXPECT_TRUE(std::regex_match(first, std::regex("[0-9a-f]{64}"))) << first;
  EXPECT_NE(first, second);
}

// ---- the gate's reading of a request head ----

using HeadState = HeadScanner::State;

// A head of `lines` lines (the request line, then "X-N: N" lines) and its blank line.
std::string head_of_lines(std::size_t lines) {
  std::string head = "GET / HTTP/1.1\r\n";
  for (std::size_t i = 1; i < lines; ++i) head += "X-" + std::to_string(i) + ": " + std::to_string(i) + "\r\n";
  return head + "\r\n";
}

TEST(WebHead, AHeadEndsAtItsBlankLineWithinItsBytesAndLines) {
  const HeadBounds bounds{256, 4};
  const std::string complete = "GET / HTTP/1.1\r\nHost: a\r\n\r\n";
  const std::string at_the_byte_bound = "GET / HTTP/1.1\r\nX: " + std::string(256 - 16 - 3 - 4, 'a') + "\r\n\r\n";
  ASSERT_EQ(at_the_byte_bound.size(), bounds.bytes);
  struct Case {
    std::string bytes;
    HeadState state;
  };
  const std::vector<Case> cases = {
      {complete, HeadState::kComplete},
      {complete + "a body, left alone", HeadState::kComplete},
      {complete.substr(0, complete.size() - 1), HeadState::kIncomplete},
      {head_of_lines(bounds.lines), HeadState::kComplete},
      {head_of_lines(bounds.lines + 1), HeadState::kTooManyLines},
      {at_the_byte_bound, HeadState::kComplete},
      {at_the_byte_bound.substr(0, bounds.bytes - 1) + "\r\n", HeadState::kTooLong},
      {std::string(bounds.bytes - 1, 'a'), HeadState::kIncomplete},
      {std::string(bounds.bytes, 'a'), HeadState::kTooLong},
      {"GET / HTTP/1.1\nHost: a\n\n", HeadState::kMalformed},
      {"GET / HTTP/1.1\r\nHost: a\n\r\n", HeadState::kMalformed},
      {"\r\n", HeadState::kMalformed},
  };
  for (const Case& test : cases) {
    HeadScanner whole(bounds), bytewise(bounds);
    EXPECT_EQ(whole.advance(test.bytes), test.state) << test.bytes;
    for (std::size_t size = 1; size <= test.bytes.size(); ++size)
      bytewise.advance(std::string_view(test.bytes).substr(0, size));
    EXPECT_EQ(bytewise.state(), test.state) << "a byte at a time: " << test.bytes;
    const std::size_t end = test.bytes.find("\r\n\r\n");
    EXPECT_EQ(whole.head_size(), test.state == HeadState::kComplete ? end + 4 : 0) << test.bytes;
    EXPECT_EQ(bytewise.head_size(), whole.head_size()) << test.bytes;
  }
}

TEST(WebHead, TheGuardsFactsAreReadAsTheServerReadsThem) {
  std::string error;
  std::optional<RequestHead> head = parse_request_head(
      "PUT /api/%77orkspace/draws?x=1&token=ab%63d&token=second HTTP/1.1\r\n"
      "host: 127.0.0.1:8421\r\nX-JUDGE-TOKEN:  t1 \r\nCookie: a=b; judge_token_8421=c\r\nOrigin: null\r\n"
      "Content-Length: 12\r\nHost: second.example\r\n\r\n",
      &error);
  ASSERT_TRUE(head) << error;
  EXPECT_EQ(head->method, "PUT");
  EXPECT_EQ(head->path, "/api/workspace/draws");
  EXPECT_EQ(head->facts.method, "PUT");
  EXPECT_EQ(head->facts.path, "/api/workspace/draws");
  EXPECT_EQ(head->facts.query_token, "abcd");
  EXPECT_EQ(head->facts.host, "127.0.0.1:8421");
  EXPECT_EQ(head->facts.header_token, "t1");
  EXPECT_EQ(head->facts.cookie, "a=b; judge_token_8421=c");
  EXPECT_EQ(head->facts.origin, "null");
  EXPECT_EQ(head->content_length, 12u);
  EXPECT_FALSE(head->chunked);
  std::optional<RequestHead> bare = parse_request_head("GET / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", &error);
  ASSERT_TRUE(bare) << error;
  EXPECT_EQ(bare->facts.origin, std::nullopt);
  EXPECT_EQ(bare->facts.host, "");
  EXPECT_EQ(bare->content_length, std::nullopt);
  EXPECT_TRUE(bare->chunked);
}

TEST(WebHead, WhatIsNotHttp1IsMalformedAndSaysWhere) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"GET /\r\n\r\n", "malformed request line"},
      {"GET / HTTP/2\r\n\r\n", "malformed request line"},
      {"GET  / HTTP/1.1\r\n\r\n", "malformed request line"},
      {"get / HTTP/1.1\r\n\r\n", "malformed request line"},
      {"GET http://evil.example/ HTTP/1.1\r\n\r\n", "malformed request line"},
      {"\r\n", "malformed request line"},
      {"GET / HTTP/1.1\r\nHost: a\r\nNo colon\r\n\r\n", "malformed header line 3"},
      {"GET / HTTP/1.1\r\nBad Name: a\r\n\r\n", "malformed header line 2"},
      {"GET / HTTP/1.1\r\n: a\r\n\r\n", "malformed header line 2"},
      {"GET / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", "Content-Length is not a number"},
      {"GET / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n", "Content-Length is not a number"},
  };
  for (const auto& [bytes, message] : cases) {
    std::string error;
    EXPECT_FALSE(parse_request_head(bytes, &error).has_value()) << bytes;
    EXPECT_EQ(error, message) << bytes;
  }
}

TEST(WebMarkers, CompilerLinesAndCrashLinesOfTheLearnersFileOnly) {
  std::string text =
      "workspace/draws.hpp:9:16: error: 'undeclared' was not declared in this scope\n"
      "harness/problems/draws.cpp:12:3: error: not the learner's\n"
      "other/workspace/draws.hpp:4:1: error: a longer path\n"
      "workspace/draws.hpp:3:2: warning: unused\n"
      "runtime_error: SIGSEGV at workspace/draws.hpp:21\n";
  std::vector<json> markers = learner_line_markers(text, "workspace/draws.hpp");
  ASSERT_EQ(markers.size(), 3u);
  EXPECT_EQ(markers[0]["line"], 9);
  EXPECT_EQ(markers[0]["column"], 16);
  EXPECT_EQ(markers[0]["severity"], "error");
  EXPECT_EQ(markers[0]["message"], "'undeclared' was not declared in this scope");
  EXPECT_EQ(markers[1]["line"], 3);
  EXPECT_EQ(markers[1]["severity"], "warning");
  EXPECT_EQ(markers[2]["line"], 21);
  EXPECT_EQ(markers[2]["column"], 0);
}

// ---- the server ----

std::string fixture(const std::string& name) {
  std::optional<std::string> text = read_file((fs::path(JUDGE_TESTS_DIR) / "fixtures" / name).string());
  EXPECT_TRUE(text) << name;
  return text.value_or("");
}

// `judge serve --port 0 --no-open` on a scratch root holding the draws
// fixture, with a workspace and a runner cache of its own; stopped and
// removed at the end.
class Server {
 public:
  // `open`: without --no-open, in the environment `env` adds.
  explicit Server(const std::string& name = "serve", bool open = false, std::vector<std::string> env = {"DISPLAY="})
      : root_(testing::scratch_root("draws", name + "_" + std::to_string(getpid()))) {
    SpawnSpec spec;
    spec.argv = {JUDGE_BINARY, "serve", "--port", "0"};
    if (!open) spec.argv.push_back("--no-open");
    env.insert(env.end(), {"JUDGE_ROOT=" + root_.string(), "JUDGE_CACHE_DIR=" + (root_ / "cache").string(),
                           "JUDGE_WORKSPACE=" + (root_ / "workspace").string()});
    spec.env = testing::judge_environment(env);
    spec.working_dir = JUDGE_SOURCE_DIR;
    std::string error;
    child_ = Child::spawn(spec, &error);
    if (!child_) throw std::runtime_error("judge serve did not start: " + error);
    std::smatch match;
    const std::regex url(R"(http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{64})\n)");
    testing::read_until(
        *child_, &out_, &err_, [&](const std::string& text) { return std::regex_search(text, match, url); }, 20000);
    if (match.empty()) throw std::runtime_error("judge serve printed no URL: " + out_.head + err_.head);
    port_ = std::stoi(match[1]);
    token_ = match[2];
  }
  ~Server() {
    child_->stop_group(1000);
    std::error_code ignored;
    fs::remove_all(root_, ignored);
  }

  int port() const { return port_; }
  pid_t pid() const { return child_->pid(); }
  // What the server printed on stderr since the last call.
  std::string take_stderr() {
    child_->drain(&out_, &err_);
    std::string news = err_.head.substr(err_taken_);
    err_taken_ = err_.head.size();
    return news;
  }
  const std::string& token() const { return token_; }
  fs::path workspace_file() const { return root_ / "workspace" / "draws.hpp"; }
  fs::path root() const { return root_; }

  httplib::Client client() const {
    httplib::Client client("127.0.0.1", port_);
    client.set_read_timeout(300, 0);
    return client;
  }
  httplib::Headers with_token(httplib::Headers headers = {}) const {
    headers.emplace("X-Judge-Token", token_);
    return headers;
  }

 private:
  fs::path root_;
  std::unique_ptr<Child> child_;
  CapturedOutput out_{1 << 20}, err_{1 << 20};
  std::size_t err_taken_ = 0;
  int port_ = 0;
  std::string token_;
};

Server& server() {
  static Server running;
  return running;
}

// Tests share one server when run in one process: those that need the
// problem not started say so.
void remove_workspace_file() { fs::remove(server().workspace_file()); }

int status_of(const httplib::Result& result) { return result ? result->status : -1; }

json json_of(const httplib::Result& result) {
  if (!result) return json();
  return json::parse(result->body, nullptr, false);
}

// The events of a server-sent stream, in order.
std::vector<std::pair<std::string, json>> events_of(const std::string& stream) {
  std::vector<std::pair<std::string, json>> events;
  static const std::regex kFrame("event: ([a-z]+)\ndata: ([^\n]*)\n\n");
  for (auto it = std::sregex_iterator(stream.begin(), stream.end(), kFrame); it != std::sregex_iterator(); ++it)
    events.emplace_back((*it)[1], json::parse((*it)[2].str()));
  return events;
}

std::vector<std::pair<std::string, json>> run_draws() {
  httplib::Result result = server().client().Post("/api/run/draws", server().with_token(), "", "text/plain");
  EXPECT_EQ(status_of(result), 200);
  if (!result) return {};
  EXPECT_EQ(result->get_header_value("Content-Type"), "text/event-stream");
  return events_of(result->body);
}

const json* event(const std::vector<std::pair<std::string, json>>& events, const std::string& name) {
  for (const auto& [event_name, data] : events)
    if (event_name == name) return &data;
  return nullptr;
}

void save(const std::string& content) {
  json body = {{"content", content}};
  httplib::Result result =
      server().client().Put("/api/workspace/draws", server().with_token(), body.dump(), "application/json");
  ASSERT_EQ(status_of(result), 200) << (result ? result->body : "no answer");
}

TEST(Serve, WithoutTheTokenEveryPathIs401) {
  remove_workspace_file();
  httplib::Client client = server().client();
  for (const char* path : {"/", "/api/problems", "/api/problems/draws", "/api/workspace/draws", "/static/app.js",
                           "/vendor/codemirror/lib/codemirror.js", "/no/such/path"})
    EXPECT_EQ(status_of(client.Get(path)), 401) << path;
  EXPECT_EQ(status_of(client.Post("/api/run/draws", "", "text/plain")), 401);
  EXPECT_EQ(status_of(client.Put("/api/workspace/draws", "{}", "application/json")), 401);
  EXPECT_EQ(status_of(client.Post("/api/lab", R"({"beam_width": 2})", "application/json")), 401);
  EXPECT_FALSE(fs::exists(server().workspace_file()));
}

TEST(Serve, AWrongTokenIs403) {
  httplib::Client client = server().client();
  std::string wrong(64, '0');
  EXPECT_EQ(status_of(client.Get("/api/problems?token=" + wrong)), 403);
  EXPECT_EQ(status_of(client.Get("/api/problems", {{"X-Judge-Token", wrong}})), 403);
  EXPECT_EQ(status_of(client.Post("/api/run/draws", {{"X-Judge-Token", wrong}}, "", "text/plain")), 403);
  EXPECT_EQ(status_of(client.Post("/api/lab", {{"X-Judge-Token", wrong}}, "{}", "application/json")), 403);
}

TEST(Serve, AForeignOriginIs403EvenWithTheToken) {
  remove_workspace_file();
  httplib::Client client = server().client();
  EXPECT_EQ(status_of(client.Get("/api/problems", server().with_token({{"Origin", "http://evil.example"}}))), 403);
  EXPECT_EQ(status_of(client.Put("/api/workspace/draws", server().with_token({{"Origin", "http://evil.example"}}), "{}",
                                 "application/json")),
            403);
  EXPECT_EQ(status_of(client.Post("/api/run/draws", server().with_token({{"Origin", "null"}}), "", "text/plain")), 403);
  EXPECT_EQ(status_of(client.Post("/api/lab", server().with_token({{"Origin", "http://evil.example"}}), "{}",
                                  "application/json")),
            403);
  EXPECT_FALSE(fs::exists(server().workspace_file()));
  std::string own = "http://127.0.0.1:" + std::to_string(server().port());
  EXPECT_EQ(status_of(client.Get("/api/problems", server().with_token({{"Origin", own}}))), 200);
}

TEST(Serve, AForeignHostIs403EvenWithTheToken) {
  httplib::Client client = server().client();
  std::string port = std::to_string(server().port());
  for (const std::string& host : std::vector<std::string>{"evil.example:" + port, "127.0.0.1:1", "rebound.example"})
    EXPECT_EQ(status_of(client.Get("/api/problems", server().with_token({{"Host", host}}))), 403) << host;
  EXPECT_EQ(status_of(client.Get("/api/problems", server().with_token({{"Host", "localhost:" + port}}))), 200);
}

TEST(Serve, TheUrlLoadsThePageWithTheTokenAndSetsTheCookie) {
  httplib::Client client = server().client();
  httplib::Result page = client.Get("/?token=" + server().token());
  ASSERT_EQ(status_of(page), 200);
  EXPECT_NE(page->body.find("content=\"" + server().token() + "\""), std::string::npos);
  EXPECT_NE(page->get_header_value("Content-Security-Policy").find("script-src 'self'"), std::string::npos);
  std::string cookie = page->get_header_value("Set-Cookie");
  std::smatch key;
  ASSERT_TRUE(std::regex_match(cookie, key,
                               std::regex("judge_page_" + std::to_string(server().port()) +
                                          "=([0-9a-f]{64}); Path=/; HttpOnly; SameSite=Strict")))
      << cookie;
  EXPECT_NE(key[1], server().token());
  std::string pair = cookie.substr(0, cookie.find(';'));
  EXPECT_EQ(status_of(client.Get("/static/app.js", {{"Cookie", pair}})), 200);
  // A reload by the cookie alone: the page, without the token in it.
  httplib::Result reloaded = client.Get("/", {{"Cookie", pair}});
  ASSERT_EQ(status_of(reloaded), 200);
  EXPECT_EQ(reloaded->body.find(server().token()), std::string::npos);
  EXPECT_NE(reloaded->body.find("content=\"\""), std::string::npos);
  // The cookie opens no answer of the API, and changes nothing: it is what
  // another page could make the browser send, and what another port gets.
  EXPECT_EQ(status_of(client.Get("/api/problems", {{"Cookie", pair}})), 401);
  EXPECT_EQ(status_of(client.Put("/api/workspace/draws", {{"Cookie", pair}}, "{}", "application/json")), 403);
}

TEST(Serve, FilesComeOnlyFromThePagesFolderAndTheSystemsLibraries) {
  httplib::Client client = server().client();
  EXPECT_EQ(status_of(client.Get("/static/app.js", server().with_token())), 200);
  for (const char* path : {"/static/../README.md", "/static/%2e%2e/README.md", "/vendor/katex/../../../../etc/passwd",
                           "/vendor/codemirror/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/README.md"}) {
    httplib::Result result = client.Get(path, server().with_token());
    EXPECT_EQ(status_of(result), 404) << path;
  }
}

// The browser's command line is visible to every user (ps): it is given a
// file of the user's own that leads to the URL, never the token itself.
TEST(Serve, TheBrowserIsOpenedOnAPrivateFileNotOnTheToken) {
  fs::path bin = fs::temp_directory_path() / ("judge-serve-open-" + std::to_string(getpid()));
  fs::create_directories(bin);
  fs::path seen = bin / "seen";
  std::ofstream(bin / "xdg-open") << "#!/bin/sh\necho \"$1\" > " << seen.string() << ".tmp\nstat -c %a \"$1\" >> "
                                  << seen.string() << ".tmp\ncat \"$1\" >> " << seen.string() << ".tmp\nmv "
                                  << seen.string() << ".tmp " << seen.string() << "\n";
  fs::permissions(bin / "xdg-open", fs::perms::owner_all);
  std::string path = std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin";
  Server opened("serve_open", /*open=*/true,
                {"DISPLAY=:99", "XDG_RUNTIME_DIR=" + bin.string(), "PATH=" + bin.string() + ":" + path});
  for (int i = 0; i < 200 && !fs::exists(seen); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::optional<std::string> record = read_file(seen.string());
  fs::remove_all(bin);
  ASSERT_TRUE(record) << "xdg-open was not run";
  std::string argument = record->substr(0, record->find('\n'));
  EXPECT_EQ(argument.find(opened.token()), std::string::npos) << argument;
  EXPECT_EQ(argument.rfind(bin.string() + "/judge-serve-", 0), 0u) << argument;
  EXPECT_NE(record->find("\n600\n"), std::string::npos) << *record;
  EXPECT_NE(record->find("http://127.0.0.1:" + std::to_string(opened.port()) + "/?token=" + opened.token()),
            std::string::npos)
      << *record;
}

TEST(Serve, AChosenPortThatIsTakenIsAnError) {
  testing::JudgeRun taken =
      testing::run_judge({"serve", "--port", std::to_string(server().port()), "--no-open"}, {"DISPLAY="});
  EXPECT_EQ(taken.status, 2);
  EXPECT_EQ(taken.err, "judge: serve: cannot listen on 127.0.0.1:" + std::to_string(server().port()) + " (in use?)\n");
  EXPECT_EQ(taken.out, "");
}

TEST(Serve, TheProblemListIsWhatJudgeListComputes) {
  httplib::Result result = server().client().Get("/api/problems", server().with_token());
  ASSERT_EQ(status_of(result), 200);
  json list = json_of(result);
  std::vector<std::string> slugs = problem_slugs((server().root() / "problems").string());
  ASSERT_EQ(list["problems"].size(), slugs.size());
  for (const json& problem : list["problems"]) {
    EXPECT_NE(std::find(slugs.begin(), slugs.end(), problem["problem"]), slugs.end()) << problem;
    EXPECT_EQ(problem["status"], "not started");
    EXPECT_EQ(problem["attempts"], 0);
  }
  json detail = json_of(server().client().Get("/api/problems/draws", server().with_token()));
  EXPECT_NE(detail["statement"].get<std::string>().find("Softmax"), std::string::npos);
  EXPECT_NE(detail["signature"].get<std::string>().find("softmax_probs"), std::string::npos);
  ASSERT_FALSE(detail["samples"].empty());
  EXPECT_TRUE(detail["samples"][0].contains("input"));
  EXPECT_FALSE(detail["try_ops"].empty());
  EXPECT_EQ(status_of(server().client().Get("/api/problems/nope", server().with_token())), 404);
  EXPECT_EQ(status_of(server().client().Get("/api/problems/..", server().with_token())), 404);
}

TEST(Serve, SavingANotStartedProblemStartsItThenAnotherEditorsSaveIsSeen) {
  remove_workspace_file();
  httplib::Client client = server().client();
  json empty = json_of(client.Get("/api/workspace/draws", server().with_token()));
  EXPECT_EQ(empty["exists"], false);
  // A PUT without content is `judge start`: the stub, never over a file.
  json started = json_of(client.Put("/api/workspace/draws", server().with_token(), "{}", "application/json"));
  EXPECT_EQ(started["exists"], true);
  EXPECT_EQ(started["content"], fixture("draws/problems/draws/stub.hpp"));
  EXPECT_TRUE(fs::exists(server().root() / "workspace" / "compile_flags.txt"));
  // Another editor saves: the version changes, and a save based on the old one is refused.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  write_file_atomically(server().workspace_file().string(), "// from another editor\n");
  json seen = json_of(client.Get("/api/workspace/draws", server().with_token()));
  EXPECT_EQ(seen["content"], "// from another editor\n");
  EXPECT_NE(seen["version"], started["version"]);
  json stale = {{"content", "// from the page\n"}, {"base_version", started["version"]}};
  httplib::Result conflict =
      client.Put("/api/workspace/draws", server().with_token(), stale.dump(), "application/json");
  EXPECT_EQ(status_of(conflict), 409);
  EXPECT_EQ(read_file(server().workspace_file().string()), "// from another editor\n");
  stale["force"] = true;
  EXPECT_EQ(status_of(client.Put("/api/workspace/draws", server().with_token(), stale.dump(), "application/json")),
            200);
  EXPECT_EQ(read_file(server().workspace_file().string()), "// from the page\n");
  EXPECT_EQ(status_of(client.Put("/api/workspace/draws", server().with_token(), "[1]", "application/json")), 400);
}

TEST(Serve, ARunOfANotStartedProblemSaysToStartIt) {
  remove_workspace_file();
  std::vector<std::pair<std::string, json>> events = run_draws();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].first, "error");
  EXPECT_NE(events[0].second["message"].get<std::string>().find("judge start"), std::string::npos);
}

TEST(Serve, RunStreamsCasesThenTheVerdictAndRecordsTheAttempt) {
  save(fixture("web/accepted.hpp"));
  std::vector<std::pair<std::string, json>> events = run_draws();
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.front().first, "begin");
  const json* begin = event(events, "begin");
  std::size_t cases = 0;
  for (const auto& [name, data] : events) cases += name == "case";
  ASSERT_TRUE(begin);
  EXPECT_EQ(cases, (*begin)["cases"].get<std::size_t>());
  const json* result = event(events, "result");
  ASSERT_TRUE(result) << events.back().second;
  EXPECT_EQ((*result)["verdict"], "accepted");
  EXPECT_EQ(events.back().first, "done");
  EXPECT_EQ(events.back().second["status"], "solved");
  EXPECT_EQ(events.back().second["attempts"], 1);
  json history = json_of(server().client().Get("/api/history/draws", server().with_token()));
  ASSERT_EQ(history["attempts"].size(), 1u);
  EXPECT_EQ(history["attempts"][0]["verdict"], "accepted");
  json solution = json_of(server().client().Get("/api/solution/draws", server().with_token()));
  EXPECT_EQ(solution["reference"], fixture("draws/solutions/draws/reference.hpp"));
  EXPECT_EQ(solution["spoiler"], false);
}

TEST(Serve, AWrongAnswerShowsTheFailingCaseAndItsInput) {
  save(fixture("draws/solutions/draws/wrong/probs_unnormalized.hpp"));
  std::vector<std::pair<std::string, json>> events = run_draws();
  const json* result = event(events, "result");
  ASSERT_TRUE(result);
  EXPECT_EQ((*result)["verdict"], "wrong_answer");
  bool shown = false;
  for (const json& test : (*result)["tests"])
    if (test["name"] == "example_flat") {
      EXPECT_EQ(test["verdict"], "wrong_answer");
      EXPECT_EQ(test["input"], json::parse(R"({"logits": [0.0, 0.0]})"));
      shown = true;
    }
  EXPECT_TRUE(shown) << *result;
  // The solution stays closed until the problem is solved: here, unless a
  // test before this one in the same server solved it.
  bool solved = false;
  json history = json_of(server().client().Get("/api/history/draws", server().with_token()));
  for (const json& attempt : history["attempts"]) solved = solved || attempt["verdict"] == "accepted";
  EXPECT_EQ(status_of(server().client().Get("/api/solution/draws", server().with_token())), solved ? 200 : 403);
  EXPECT_EQ(status_of(server().client().Get("/api/solution/draws?force=1", server().with_token())), 200);
}

TEST(Serve, ACompileErrorIsMarkedOnTheLearnersLine) {
  save(fixture("web/compile_error.hpp"));
  std::vector<std::pair<std::string, json>> events = run_draws();
  const json* result = event(events, "result");
  ASSERT_TRUE(result);
  EXPECT_EQ((*result)["verdict"], "compile_error");
  const json* done = event(events, "done");
  ASSERT_TRUE(done);
  ASSERT_FALSE((*done)["markers"].empty()) << (*result)["message"];
  EXPECT_EQ((*done)["markers"][0]["line"], 9);
  EXPECT_EQ((*done)["markers"][0]["severity"], "error");
  EXPECT_NE((*done)["markers"][0]["message"].get<std::string>().find("undeclared_normalizer"), std::string::npos);
}

TEST(Serve, ASecondRunOfTheSameProblemWaitsForTheFirst) {
  // A file never judged before: the first run compiles for a while.
  save(fixture("web/accepted.hpp") + "\n// " + std::to_string(getpid()) + "\n");
  httplib::Client first_client = server().client();
  std::string first_stream;
  std::atomic<bool> first_began = false;
  std::thread first([&] {
    httplib::Request request;
    request.method = "POST";
    request.path = "/api/run/draws";
    request.headers = server().with_token();
    request.content_receiver = [&](const char* data, std::size_t size, std::uint64_t, std::uint64_t) {
      first_stream.append(data, size);
      if (first_stream.find("event: begin") != std::string::npos) first_began = true;
      return true;
    };
    first_client.send(request);
  });
  for (int i = 0; i < 600 && !first_began; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_TRUE(first_began);
  std::vector<std::pair<std::string, json>> second = run_draws();
  first.join();
  ASSERT_FALSE(second.empty());
  EXPECT_EQ(second[0].first, "progress");
  EXPECT_NE(second[0].second["what"].get<std::string>().find("waiting"), std::string::npos);
  std::vector<std::pair<std::string, json>> first_events = events_of(first_stream);
  const json* first_result = event(first_events, "result");
  const json* second_result = event(second, "result");
  ASSERT_TRUE(first_result && second_result);
  EXPECT_EQ((*first_result)["verdict"], "accepted");
  EXPECT_EQ((*second_result)["verdict"], "accepted");
}

TEST(Serve, TryRunsTheLearnersInputBesideTheReference) {
  save(fixture("web/accepted.hpp"));
  httplib::Client client = server().client();
  json body = {{"op", "softmax_probs"}, {"input", "{logits: [1, 0]}"}};
  httplib::Result result = client.Post("/api/try/draws", server().with_token(), body.dump(), "application/json");
  ASSERT_EQ(status_of(result), 200) << (result ? result->body : "");
  json tried = json_of(result);
  EXPECT_EQ(tried["agree"], true);
  EXPECT_NE(tried["text"].get<std::string>().find("reference"), std::string::npos);
  json bad = {{"op", "softmax_probs"}, {"input", "{logit: [1, 0]}"}};
  httplib::Result refused = client.Post("/api/try/draws", server().with_token(), bad.dump(), "application/json");
  EXPECT_EQ(status_of(refused), 422);
  EXPECT_NE(refused->body.find("logit"), std::string::npos);
  json a_file = {{"op", "softmax_probs"}, {"input", server().workspace_file().string()}};
  EXPECT_EQ(status_of(client.Post("/api/try/draws", server().with_token(), a_file.dump(), "application/json")), 422);
}

// The lab's settings are checked before anything is built or loaded: a
// setting out of range, or beam search with speculative decoding, is one
// error event naming it.
TEST(Serve, TheLabRefusesSettingsItCannotTakeInAnErrorEvent) {
  httplib::Client client = server().client();
  for (const auto& [body, named] : {std::pair{R"({"beam_width": 17})", "beam_width"},
                                    std::pair{R"({"beam_width": 2, "length_penalty": -1})", "length_penalty"},
                                    std::pair{R"({"beam_width": 2, "draft_tokens": 3})", "--draft-tokens"}}) {
    httplib::Result result = client.Post("/api/lab", server().with_token(), body, "application/json");
    ASSERT_EQ(status_of(result), 200) << body;
    const auto events = events_of(result->body);
    ASSERT_EQ(events.size(), 1u) << result->body;
    EXPECT_EQ(events[0].first, "error");
    EXPECT_NE(events[0].second["message"].get<std::string>().find(named), std::string::npos) << result->body;
  }
}

TEST(Serve, ThePageCookieCountsOnlyUnderThisServersPortsName) {
  httplib::Client client = server().client();
  const int port = server().port();
  httplib::Result page = client.Get("/?token=" + server().token());
  ASSERT_EQ(status_of(page), 200);
  std::string cookie = page->get_header_value("Set-Cookie");
  std::string key = cookie.substr(cookie.find('=') + 1, cookie.find(';') - cookie.find('=') - 1);
  // A host-only cookie: no Domain attribute widens it to other hosts.
  EXPECT_EQ(cookie, page_cookie_name(port) + "=" + key + "; Path=/; HttpOnly; SameSite=Strict");
  for (int other : {port - 1, port + 1}) {
    std::string named_for_other = page_cookie_name(other) + "=" + key;
    EXPECT_EQ(status_of(client.Get("/static/app.js", {{"Cookie", named_for_other}})), 401) << named_for_other;
  }
  EXPECT_EQ(status_of(client.Get("/static/app.js", {{"Cookie", page_cookie_name(port) + "=" + key}})), 200);
}

// ---- the server under attack: raw sockets, as another user of the machine opens them ----

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

long ms_since(Clock::time_point start) {
  return std::chrono::duration_cast<milliseconds>(Clock::now() - start).count();
}

// A TCP connection to the server, for what no HTTP client sends.
class RawConnection {
 public:
  explicit RawConnection(int port) : fd_(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd_ < 0 || connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0)
      throw std::runtime_error(std::string("connect: ") + std::strerror(errno));
    // A server that neither reads nor closes fails the test instead of hanging it.
    timeval stuck{20, 0};
    setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &stuck, sizeof stuck);
  }
  ~RawConnection() { close(fd_); }
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  // Sends all of `bytes`; false when it could not, and then closed_by_server()
  // says whether the server had closed the connection.
  bool send_all(std::string_view bytes) {
    while (!bytes.empty()) {
      ssize_t sent = send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (sent <= 0) {
        closed_by_server_ = closed_by_server_ || errno == EPIPE || errno == ECONNRESET;
        return false;
      }
      bytes.remove_prefix(static_cast<std::size_t>(sent));
    }
    return true;
  }
  bool closed_by_server() const { return closed_by_server_; }

  // Reads what the server sends, appending it to *received, until it closes
  // the connection (returns true) or `wait_ms` pass (false); looks once when 0.
  bool read_until_closed(int wait_ms, std::string* received = nullptr) {
    Clock::time_point deadline = Clock::now() + milliseconds(wait_ms);
    for (;;) {
      pollfd ready = {fd_, POLLIN, 0};
      int left = static_cast<int>(std::max<long>(0, -ms_since(deadline)));
      if (poll(&ready, 1, left) > 0) {
        char chunk[4096];
        ssize_t got = recv(fd_, chunk, sizeof chunk, 0);
        if (got <= 0) return closed_by_server_ = true;
        if (received) received->append(chunk, static_cast<std::size_t>(got));
      } else if (Clock::now() >= deadline) {
        return false;
      }
    }
  }

  // One whole answer (its head and Content-Length bytes of body) within
  // `wait_ms`; what came of it otherwise.
  std::string read_answer(int wait_ms) {
    Clock::time_point start = Clock::now();
    std::string answer;
    while (ms_since(start) < wait_ms) {
      std::size_t end = answer.find("\r\n\r\n");
      if (end != std::string::npos) {
        std::smatch length;
        std::string head = answer.substr(0, end);
        std::size_t body =
            std::regex_search(head, length, std::regex("Content-Length: (\\d+)")) ? std::stoul(length[1]) : 0;
        if (answer.size() >= end + 4 + body) return answer;
      }
      pollfd ready = {fd_, POLLIN, 0};
      if (poll(&ready, 1, 50) <= 0) continue;
      char chunk[4096];
      ssize_t got = recv(fd_, chunk, sizeof chunk, 0);
      if (got <= 0) break;
      answer.append(chunk, static_cast<std::size_t>(got));
    }
    return answer;
  }

 private:
  int fd_;
  bool closed_by_server_ = false;
};

// "HTTP/1.1 431 Request Header Fields Too Large" and the like: an answer's first line.
std::string status_line(const std::string& answer) { return answer.substr(0, answer.find("\r\n")); }

// The start of a request head to `on`: its request line and Host, and the
// token when `with_token`; the caller adds the rest and the blank line.
std::string head_start(const Server& on, const std::string& request_line, bool with_token) {
  std::string head = request_line + "\r\nHost: 127.0.0.1:" + std::to_string(on.port()) + "\r\n";
  return with_token ? head + "X-Judge-Token: " + on.token() + "\r\n" : head;
}

// `head` (a head's lines without the blank line) padded with header lines of
// at most 1,000 bytes to `total` bytes, blank line included.
std::string padded_to(std::string head, std::size_t total) {
  const std::size_t shortest = std::string("X-Padding: \r\n").size();
  EXPECT_GE(total, head.size() + 2 + shortest);
  while (head.size() + 2 < total) {
    std::size_t room = total - 2 - head.size();
    std::size_t line = room <= 1000 ? room : std::min<std::size_t>(1000, room - shortest);
    head += "X-Padding: " + std::string(line - shortest, 'a') + "\r\n";
  }
  return head + "\r\n";
}

// A field of /proc/PID/status, in kB ("VmHWM": the peak resident memory).
long status_kb(pid_t pid, const std::string& field) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind(field + ":", 0) == 0) return std::stol(line.substr(field.size() + 1));
  return -1;
}

TEST(ServeUnderAttack, AHeaderFloodWithoutTheTokenIsCutAndLeavesTheServersMemoryAlone) {
  Server flooded("serve_flood");
  ASSERT_EQ(status_of(flooded.client().Get("/api/problems", flooded.with_token())), 200);
  const long peak_before = status_kb(flooded.pid(), "VmHWM");
  ASSERT_GT(peak_before, 0);
  // Per connection, far more than the kernel's socket buffers hold: a server
  // that kept reading would take it all.
  const std::size_t kFlood = 32 << 20;
  const int kConnections = 16;
  std::vector<std::size_t> sent(kConnections, 0);
  std::vector<char> cut(kConnections, false);
  std::vector<std::thread> flooders;
  for (int i = 0; i < kConnections; ++i)
    flooders.emplace_back([&, i] {
      RawConnection connection(flooded.port());
      // Header lines without end, as measured; or one endless header line.
      const std::string line = i % 2 ? "X-Flood: " + std::string(90, 'a') + "\r\n" : std::string(100, 'a');
      std::string chunk;
      while (chunk.size() < (64 << 10)) chunk += line;
      bool open = connection.send_all(head_start(flooded, "GET / HTTP/1.1", false) + "X-Flood: ");
      while (open && sent[i] < kFlood)
        if ((open = connection.send_all(chunk))) sent[i] += chunk.size();
      cut[i] = connection.closed_by_server();
    });
  for (std::thread& flooder : flooders) flooder.join();
  const long peak_after = status_kb(flooded.pid(), "VmHWM");
  for (int i = 0; i < kConnections; ++i)
    EXPECT_TRUE(cut[i]) << "connection " << i << " was not closed: the server took " << sent[i] << " bytes";
  EXPECT_LT(peak_after - peak_before, 16 << 10) << "KiB more resident memory at the peak";
}

TEST(ServeUnderAttack, AHeadIsRefusedWith431AsSoonAsItReachesItsBytes) {
  const WebLimits limits;
  RawConnection endless(server().port());
  std::string head = head_start(server(), "GET /api/problems HTTP/1.1", false);
  while (head.size() < limits.head.bytes) head += "X-Padding: " + std::string(1000, 'a') + "\r\n";
  head.resize(limits.head.bytes);  // no blank line yet: the head goes on
  ASSERT_TRUE(endless.send_all(head));
  Clock::time_point start = Clock::now();
  std::string answer;
  EXPECT_TRUE(endless.read_until_closed(2000, &answer)) << "the server waits for more than its bound";
  EXPECT_LT(ms_since(start), 1000);
  EXPECT_EQ(status_line(answer), "HTTP/1.1 431 Request Header Fields Too Large");
  EXPECT_NE(answer.find("{\"error\":\"the request head is over " + std::to_string(limits.head.bytes) + " bytes\"}"),
            std::string::npos)
      << answer;
  // A head of exactly the bound, with the token, is answered.
  RawConnection whole(server().port());
  ASSERT_TRUE(whole.send_all(padded_to(
      head_start(server(), "GET /api/problems HTTP/1.1", true) + "Connection: close\r\n", limits.head.bytes)));
  EXPECT_EQ(status_line(whole.read_answer(5000)), "HTTP/1.1 200 OK");
}

TEST(ServeUnderAttack, AHeadOverItsLinesIsRefusedWith431) {
  const WebLimits limits;
  std::string head = head_start(server(), "GET /api/problems HTTP/1.1", true) + "Connection: close\r\n";
  for (std::size_t line = 4; line < limits.head.lines; ++line) head += "X-" + std::to_string(line) + ": 1\r\n";
  RawConnection at_the_bound(server().port());
  ASSERT_TRUE(at_the_bound.send_all(head + "\r\n"));
  EXPECT_EQ(status_line(at_the_bound.read_answer(5000)), "HTTP/1.1 200 OK");
  RawConnection over(server().port());
  ASSERT_TRUE(over.send_all(head + "X-One-Too-Many: 1\r\n\r\n"));
  std::string answer = over.read_answer(5000);
  EXPECT_EQ(status_line(answer), "HTTP/1.1 431 Request Header Fields Too Large");
  EXPECT_NE(answer.find("the request head is over " + std::to_string(limits.head.lines) + " lines"), std::string::npos)
      << answer;
}

TEST(ServeUnderAttack, ABodyOverItsBoundIsRefusedWith413BeforeItIsSent) {
  const WebLimits limits;
  const std::string put = head_start(server(), "PUT /api/workspace/draws HTTP/1.1", true) +
                          "Content-Type: application/json\r\nConnection: close\r\n";
  RawConnection too_large(server().port());
  ASSERT_TRUE(too_large.send_all(put + "Content-Length: " + std::to_string(limits.body_bytes + 1) + "\r\n\r\n"));
  Clock::time_point start = Clock::now();
  std::string answer = too_large.read_answer(2000);
  EXPECT_LT(ms_since(start), 1000);
  EXPECT_EQ(status_line(answer), "HTTP/1.1 413 Payload Too Large");
  EXPECT_NE(answer.find("the body is over " + std::to_string(limits.body_bytes) + " bytes"), std::string::npos)
      << answer;
  // Sent whole anyway, as a browser sends it, and more than the sockets'
  // buffers hold: the client can send it all and read the refusal, not lose
  // both to a reset.
  RawConnection sent_whole(server().port());
  const std::string over(8 * limits.body_bytes, ' ');
  ASSERT_TRUE(sent_whole.send_all(put + "Content-Length: " + std::to_string(over.size()) + "\r\n\r\n" + over));
  EXPECT_EQ(status_line(sent_whole.read_answer(2000)), "HTTP/1.1 413 Payload Too Large");
  // A body of exactly the bound is taken: the content, then spaces.
  std::string body = json{{"content", fixture("web/accepted.hpp")}}.dump();
  body.resize(limits.body_bytes, ' ');
  RawConnection at_the_bound(server().port());
  ASSERT_TRUE(at_the_bound.send_all(put + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body));
  EXPECT_EQ(status_line(at_the_bound.read_answer(5000)), "HTTP/1.1 200 OK");
}

TEST(ServeUnderAttack, ABodyComesOnlyToTheRoutesThatTakeOneAndWithItsLength) {
  struct Case {
    std::string head;
    std::string status_line;
  };
  const std::vector<Case> cases = {
      {head_start(server(), "GET /api/problems HTTP/1.1", true) + "Content-Length: 5\r\n\r\nhello",
       "HTTP/1.1 413 Payload Too Large"},
      {head_start(server(), "POST /api/run/draws HTTP/1.1", true) + "Content-Length: 2\r\n\r\n{}",
       "HTTP/1.1 413 Payload Too Large"},
      {head_start(server(), "PUT /api/workspace/draws HTTP/1.1", true) + "Transfer-Encoding: chunked\r\n\r\n",
       "HTTP/1.1 411 Length Required"},
      // Without a length, a request has no body: what follows is the next request.
      {head_start(server(), "POST /api/try/draws HTTP/1.1", true) + "\r\n{\"input\": \"{logits: [1, 0]}\"}",
       "HTTP/1.1 400 Bad Request"},
  };
  for (const Case& test : cases) {
    RawConnection connection(server().port());
    ASSERT_TRUE(connection.send_all(test.head));
    EXPECT_EQ(status_line(connection.read_answer(2000)), test.status_line) << test.head;
  }
}

TEST(ServeUnderAttack, TheOwnerIsServedWhileOthersHoldDozensOfSlowAndIdleConnectionsAndFlood) {
  const int port = server().port();
  std::vector<std::unique_ptr<RawConnection>> idle, slow;
  for (int i = 0; i < 32; ++i) idle.push_back(std::make_unique<RawConnection>(port));
  for (int i = 0; i < 32; ++i) {
    slow.push_back(std::make_unique<RawConnection>(port));
    slow.back()->send_all("GET / HTTP/1.1\r\n");
  }
  std::atomic<bool> attacking = true;
  std::thread trickler([&] {
    while (attacking) {
      for (auto& connection : slow) connection->send_all("a");
      std::this_thread::sleep_for(milliseconds(100));
    }
  });
  std::thread flooder([&] {
    std::string flood;
    while (flood.size() < (64 << 10)) flood += "X-Flood: " + std::string(90, 'a') + "\r\n";
    while (attacking) {
      RawConnection connection(port);
      for (bool open = connection.send_all("GET / HTTP/1.1\r\n"); open && attacking;) open = connection.send_all(flood);
    }
  });
  std::this_thread::sleep_for(milliseconds(300));
  long slowest = 0;
  for (int i = 0; i < 10; ++i) {
    httplib::Client owner("127.0.0.1", port);
    owner.set_connection_timeout(3, 0);
    owner.set_read_timeout(3, 0);
    Clock::time_point start = Clock::now();
    EXPECT_EQ(status_of(owner.Get("/api/problems", server().with_token())), 200) << "request " << i;
    slowest = std::max(slowest, ms_since(start));
  }
  attacking = false;
  trickler.join();
  flooder.join();
  EXPECT_LT(slowest, 1000) << "ms for the slowest of the owner's requests";
}

TEST(ServeUnderAttack, SlowIdleAndKeptAliveConnectionsAreClosedAfterTheHeadTime) {
  const long head_ms = WebLimits{}.head_time.count();
  RawConnection idle(server().port()), slow(server().port()), kept(server().port());
  Clock::time_point start = Clock::now();
  ASSERT_TRUE(slow.send_all("GET / HTTP/1.1\r\n"));
  ASSERT_TRUE(kept.send_all(head_start(server(), "GET /api/problems HTTP/1.1", true) + "\r\n"));
  ASSERT_EQ(status_line(kept.read_answer(5000)), "HTTP/1.1 200 OK");
  Clock::time_point answered = Clock::now();
  struct Watched {
    RawConnection* connection;
    Clock::time_point since;
    long closed_after = -1;
    std::string received;
  };
  std::vector<Watched> watched = {{&idle, start, -1, ""}, {&slow, start, -1, ""}, {&kept, answered, -1, ""}};
  while (ms_since(start) < head_ms + 3000) {
    slow.send_all("a");  // a byte every 100 ms: never a whole head
    for (Watched& each : watched)
      if (each.closed_after < 0 && each.connection->read_until_closed(0, &each.received))
        each.closed_after = ms_since(each.since);
    std::this_thread::sleep_for(milliseconds(100));
  }
  for (const Watched& each : watched) {
    EXPECT_GE(each.closed_after, head_ms - 500) << each.received;
    EXPECT_LE(each.closed_after, head_ms + 1500) << each.received;
  }
  EXPECT_EQ(watched[0].received, "");
  EXPECT_EQ(status_line(watched[1].received), "HTTP/1.1 408 Request Timeout");
  EXPECT_EQ(watched[2].received, "");
}

TEST(ServeUnderAttack, WhenTooManyConnectionsWaitTheOldestAreClosedAndTheOwnerIsServed) {
  Server crowded("serve_crowded");
  const WebLimits limits;
  const std::size_t extra = 16;
  std::vector<std::unique_ptr<RawConnection>> connections;
  for (std::size_t i = 0; i < limits.waiting_connections + extra; ++i)
    connections.push_back(std::make_unique<RawConnection>(crowded.port()));
  // The owner's connection waits too, and pushes one more out.
  EXPECT_EQ(status_of(crowded.client().Get("/api/problems", crowded.with_token())), 200);
  std::this_thread::sleep_for(milliseconds(200));
  for (std::size_t i = 0; i < connections.size(); ++i)
    EXPECT_EQ(connections[i]->read_until_closed(0), i < extra + 1) << "connection " << i;
}

TEST(ServeUnderAttack, TheOwnersKeptAliveConnectionsAreBoundedToo) {
  Server kept("serve_kept_alive");
  const WebLimits limits;
  std::vector<std::unique_ptr<RawConnection>> connections;
  for (std::size_t i = 0; i < limits.idle_connections + 1; ++i) {
    connections.push_back(std::make_unique<RawConnection>(kept.port()));
    ASSERT_TRUE(connections.back()->send_all(head_start(kept, "GET /api/problems HTTP/1.1", true) + "\r\n"));
    ASSERT_EQ(status_line(connections.back()->read_answer(5000)), "HTTP/1.1 200 OK") << "connection " << i;
  }
  std::this_thread::sleep_for(milliseconds(200));
  for (std::size_t i = 0; i < connections.size(); ++i)
    EXPECT_EQ(connections[i]->read_until_closed(0), i == 0) << "connection " << i;
}

// A flood of refusals must not flood the owner's terminal, nor block the
// server on a full one.
TEST(ServeUnderAttack, RefusalsArePrintedALineASecondAtMost) {
  Server logged("serve_logged");
  std::string started;  // the line it prints at start, after the URL
  for (int i = 0; i < 250 && started.find("Ctrl-C stops\n") == std::string::npos; ++i) {
    started += logged.take_stderr();
    std::this_thread::sleep_for(milliseconds(20));
  }
  ASSERT_NE(started.find("Ctrl-C stops\n"), std::string::npos) << started;
  auto refused = [&logged] {
    RawConnection connection(logged.port());
    connection.send_all(head_start(logged, "GET / HTTP/1.1", false) + "\r\n");
    connection.read_until_closed(2000);
  };
  Clock::time_point start = Clock::now();
  for (int i = 0; i < 50; ++i) refused();
  ASSERT_LT(ms_since(start), 1000) << "too slow for the test: 50 refusals should take well under a second";
  std::this_thread::sleep_for(milliseconds(1100) - (Clock::now() - start));
  refused();
  const std::string line =
      "judge serve: refused GET /: the token is missing: open the URL `judge serve` printed, with its ?token=";
  EXPECT_EQ(logged.take_stderr(), line + "\n" + line + " (and 49 more since the last line)\n");
}

TEST(ServeUnderAttack, RequestsBeyondTheBusyBoundAreRefusedWith503) {
  Server busy("serve_busy");
  const WebLimits limits;
  // Each is admitted, then holds a worker, or waits for one, for a body that does not come.
  std::vector<std::unique_ptr<RawConnection>> waiting_for_body;
  for (std::size_t i = 0; i < limits.busy_requests; ++i) {
    waiting_for_body.push_back(std::make_unique<RawConnection>(busy.port()));
    ASSERT_TRUE(waiting_for_body.back()->send_all(head_start(busy, "PUT /api/workspace/draws HTTP/1.1", true) +
                                                  "Content-Length: 100\r\n\r\n"));
  }
  std::this_thread::sleep_for(milliseconds(200));
  RawConnection one_more(busy.port());
  ASSERT_TRUE(one_more.send_all(head_start(busy, "GET /api/problems HTTP/1.1", true) + "\r\n"));
  EXPECT_EQ(status_line(one_more.read_answer(2000)), "HTTP/1.1 503 Service Unavailable");
}

}  // namespace
}  // namespace judge
