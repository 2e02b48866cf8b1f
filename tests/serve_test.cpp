// `judge serve`: the guard's rules on their own (token, Host, Origin) and
// the reading of a request head, then the judge binary serving the fixture
// package `draws` (tests/fixtures/draws) in a scratch root, asked over HTTP:
// refusals without the token, from a foreign Origin or to a foreign Host;
// the problem list; starting, saving and another editor's save; a judging
// streamed as server-sent events (accepted, a wrong answer with its failing
// input, a compile error marked on the learner's line); two runs of one
// problem at once; try, history and the solution once solved.
#include <gtest/gtest.h>
#include <httplib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "cli/web_api.hpp"
#include "cli/web_guard.hpp"
#include "cli/web_head.hpp"
#include "run_judge.hpp"
#include "scratch_root.hpp"
#include "spec/package.hpp"
#include "util/files.hpp"

namespace judge {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

// ---- the guard's rules ----

const WebAccess kAccess{8421, std::string(64, 'a')};
const std::string kToken = kAccess.token;

WebRequestFacts get(const std::string& host = "127.0.0.1:8421") {
  WebRequestFacts facts;
  facts.method = "GET";
  facts.host = host;
  return facts;
}

TEST(WebGuard, TheTokenIsNeededFromTheQueryAHeaderOrTheCookie) {
  EXPECT_EQ(admit_web_request(kAccess, get()).status, 401);
  WebRequestFacts by_query = get();
  by_query.query_token = kToken;
  WebAdmission admitted = admit_web_request(kAccess, by_query);
  EXPECT_EQ(admitted.status, 200);
  EXPECT_TRUE(admitted.set_cookie);
  WebRequestFacts by_header = get();
  by_header.header_token = kToken;
  EXPECT_EQ(admit_web_request(kAccess, by_header).status, 200);
  EXPECT_FALSE(admit_web_request(kAccess, by_header).set_cookie);
  WebRequestFacts by_cookie = get();
  by_cookie.cookie = "other=1; judge_token_8421=" + kToken + "; more=2";
  EXPECT_EQ(admit_web_request(kAccess, by_cookie).status, 200);
  WebRequestFacts other_port_cookie = get();
  other_port_cookie.cookie = "judge_token_8422=" + kToken;
  EXPECT_EQ(admit_web_request(kAccess, other_port_cookie).status, 401);
}

TEST(WebGuard, AWrongTokenIsRefusedAndAFreshUrlWinsOverAStaleCookie) {
  WebRequestFacts wrong = get();
  wrong.query_token = std::string(64, 'b');
  EXPECT_EQ(admit_web_request(kAccess, wrong).status, 403);
  WebRequestFacts shorter = get();
  shorter.header_token = kToken.substr(1);
  EXPECT_EQ(admit_web_request(kAccess, shorter).status, 403);
  WebRequestFacts stale_cookie = get();
  stale_cookie.cookie = "judge_token_8421=" + std::string(64, 'c');
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
  post.cookie = "judge_token_8421=" + kToken;
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
    CapturedOutput out(1 << 20), err(1 << 20);
    std::smatch match;
    const std::regex url(R"(http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{64})\n)");
    testing::read_until(*child_, &out, &err, [&](const std::string& text) { return std::regex_search(text, match, url); },
                        20000);
    if (match.empty()) throw std::runtime_error("judge serve printed no URL: " + out.head + err.head);
    port_ = std::stoi(match[1]);
    token_ = match[2];
  }
  ~Server() {
    child_->stop_group(1000);
    std::error_code ignored;
    fs::remove_all(root_, ignored);
  }

  int port() const { return port_; }
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
  EXPECT_FALSE(fs::exists(server().workspace_file()));
}

TEST(Serve, AWrongTokenIs403) {
  httplib::Client client = server().client();
  std::string wrong(64, '0');
  EXPECT_EQ(status_of(client.Get("/api/problems?token=" + wrong)), 403);
  EXPECT_EQ(status_of(client.Get("/api/problems", {{"X-Judge-Token", wrong}})), 403);
  EXPECT_EQ(status_of(client.Post("/api/run/draws", {{"X-Judge-Token", wrong}}, "", "text/plain")), 403);
}

TEST(Serve, AForeignOriginIs403EvenWithTheToken) {
  remove_workspace_file();
  httplib::Client client = server().client();
  EXPECT_EQ(status_of(client.Get("/api/problems", server().with_token({{"Origin", "http://evil.example"}}))), 403);
  EXPECT_EQ(status_of(client.Put("/api/workspace/draws", server().with_token({{"Origin", "http://evil.example"}}),
                                 "{}", "application/json")),
            403);
  EXPECT_EQ(status_of(client.Post("/api/run/draws", server().with_token({{"Origin", "null"}}), "", "text/plain")),
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
  EXPECT_NE(cookie.find("judge_token_" + std::to_string(server().port()) + "=" + server().token()), std::string::npos);
  EXPECT_NE(cookie.find("HttpOnly"), std::string::npos);
  EXPECT_NE(cookie.find("SameSite=Strict"), std::string::npos);
  std::string pair = cookie.substr(0, cookie.find(';'));
  EXPECT_EQ(status_of(client.Get("/static/app.js", {{"Cookie", pair}})), 200);
  // A change needs the header: the cookie alone is what another page could make the browser send.
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
  Server opened("serve_open", /*open=*/true, {"DISPLAY=:99", "XDG_RUNTIME_DIR=" + bin.string(),
                                              "PATH=" + bin.string() + ":" + path});
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
  httplib::Result conflict = client.Put("/api/workspace/draws", server().with_token(), stale.dump(), "application/json");
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
  EXPECT_EQ(status_of(server().client().Get("/api/solution/draws", server().with_token())), 403);
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

}  // namespace
}  // namespace judge
