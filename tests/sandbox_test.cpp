// The sandbox, proved with hostile solutions (tests/fixtures/hostile and
// the crash fixtures in tests/fixtures/temperature): each is judged through
// the CLI and must get its verdict, and afterwards nothing may have
// escaped: no process left, no file written outside the scratch directory,
// no connection made, and the judge itself exits 0 or 1 with one
// well-formed JSON object on stdout. A fixture needing a kernel feature this
// machine lacks is skipped, saying which (see `judge doctor`).
#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/ipc.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "course/grade.hpp"
#include "fixture_files.hpp"
#include "run_judge.hpp"
#include "sandbox/runner_cgroup.hpp"
#include "sandbox/sandbox.hpp"
#include "skip_here.hpp"
#include "util/files.hpp"

namespace {
namespace fs = std::filesystem;
using nlohmann::json;

using judge::Child;
using judge::ExitStatus;
using judge::SpawnSpec;
using judge::testing::JudgeRun;
using judge::testing::run_judge;

// Which protections `judge doctor` reports active.
const std::set<std::string>& active_protections() {
  static const std::set<std::string> active = [] {
    std::set<std::string> names;
    JudgeRun doctor = run_judge({"doctor", "--format", "json"});
    json report = json::parse(doctor.out);  // named: a temporary would die before the loop
    for (const json& p : report["protections"])
      if (p["active"].get<bool>()) names.insert(p["name"].get<std::string>());
    return names;
  }();
  return active;
}

// The first group of `needs` (protections, alternatives joined by '|') of
// which `judge doctor` reports none active; empty when every group has one.
std::string missing_protection(const std::vector<std::string>& needs) {
  for (const std::string& group : needs) {
    bool any = false;
    std::stringstream alternatives(group);
    for (std::string name; std::getline(alternatives, name, '|');) any = any || active_protections().count(name);
    if (!any) return group;
  }
  return "";
}

// A file under /proc/PID; empty when the process is gone (it may exit
// while being read, and the read then fails with ESRCH) or unreadable.
std::string proc_file(const fs::path& path) {
  try {
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  } catch (const std::exception&) {
    return "";
  }
}

// A process's command line, arguments joined by spaces; empty when it is
// gone or unreadable.
std::string command_line(const fs::path& process) {
  std::string cmdline = proc_file(process / "cmdline");
  std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
  return cmdline;
}

// Processes whose command line mentions `needle`.
std::vector<std::string> processes_mentioning(const std::string& needle) {
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    std::string pid = entry.path().filename();
    if (pid.find_first_not_of("0123456789") != std::string::npos || pid == std::to_string(getpid())) continue;
    std::string cmdline = command_line(entry.path());
    if (cmdline.find(needle) != std::string::npos) found.push_back(pid + ": " + cmdline);
  }
  return found;
}

// The parent of process `pid`; 0 when it is gone.
pid_t parent_of(pid_t pid) {
  std::string stat = judge::read_file_or_empty("/proc/" + std::to_string(pid) + "/stat");  // "" once it is gone
  std::size_t close = stat.rfind(')');
  if (close == std::string::npos) return 0;
  char state = 0;
  int parent = 0;
  return std::sscanf(stat.c_str() + close + 1, " %c %d", &state, &parent) == 2 ? parent : 0;
}

// Running runners of `problem`, except those of other judges (tests
// running at the same time): a runner's program name is its binary,
// "…/PROBLEM-HASH" (a compiler only mentions that path among its
// arguments); another judge's descends from that judge, still running.
// The judge `judge` has exited, so what it left has no judge above it.
// With JUDGE_CACHE_DIR set (tests/unprivileged_sandbox_test.sh gives this
// binary a cache of its own), only runners built there are this test's.
std::vector<std::string> runners_not_of_other_judges(const std::string& problem, pid_t judge) {
  // This judge's runners live in its cache: JUDGE_CACHE_DIR, else its build
  // directory. Judges of other checkouts may be running at the same time.
  const char* cache_variable = std::getenv("JUDGE_CACHE_DIR");
  const std::string cache = cache_variable && *cache_variable
                                ? std::string(cache_variable)
                                : fs::path(JUDGE_BINARY).parent_path().parent_path().string() + "/";
  std::vector<std::string> found;
  for (const std::string& process : processes_mentioning("/" + problem + "-")) {
    pid_t pid = std::atoi(process.c_str());
    std::string cmdline = process.substr(process.find(':') + 2);
    std::string program = cmdline.substr(0, cmdline.find(' '));
    if (program.find("/" + problem + "-") == std::string::npos) continue;
    if (program.rfind(cache, 0) != 0) continue;
    bool another_judges = false;
    for (pid_t above = parent_of(pid); above > 1 && !another_judges; above = parent_of(above))
      another_judges =
          above != judge && command_line(fs::path("/proc") / std::to_string(above)).rfind(JUDGE_BINARY, 0) == 0;
    if (!another_judges) found.push_back(process);
  }
  return found;
}

// The scratch directories a judge process made ("judge-run-PID-XXXXXX").
std::set<std::string> scratch_dirs_of(pid_t judge) {
  std::set<std::string> dirs;
  std::string prefix = "judge-run-" + std::to_string(judge) + "-";
  for (const auto& entry : fs::directory_iterator("/tmp"))
    if (entry.path().filename().string().rfind(prefix, 0) == 0) dirs.insert(entry.path());
  return dirs;
}

struct Hostile {
  std::string file;                   // under tests/fixtures/
  std::vector<std::string> verdicts;  // any of these
  std::vector<std::string> needs;     // protections that must be active, any of each group joined by '|'
  // Where the system-call filter is active, any of these instead (a
  // fixture that forks is stopped at its first fork).
  std::vector<std::string> filtered_verdicts = {};
  // When not empty: must appear in the message of the first case that
  // failed.
  std::string message = {};
  std::string problem = "temperature";
  // The most the judge (or its largest runner) may hold at once.
  long max_rss_mb = 1200;
  // Judged with the text report, which first judges the few-call cases on
  // an -Og build of the file (the quick preview), instead of JSON.
  bool text_report = false;
};

void PrintTo(const Hostile& hostile, std::ostream* os) { *os << hostile.file; }

// What a fixture may try to reach: a TCP listener on 127.0.0.1 and a
// pathname unix socket anyone may connect to, as a careless user's tmux or
// ssh-agent socket might be. Closed (and the socket file removed) on
// destruction; connected() says whether anything connected.
class Bait {
 public:
  explicit Bait(const std::string& mark) : unix_path_(fs::temp_directory_path() / (mark + ".sock")) {
    tcp_ = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bound_ = bind(tcp_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 && listen(tcp_, 16) == 0;
    socklen_t length = sizeof address;
    getsockname(tcp_, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);
    unix_ = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
    sockaddr_un unix_address{};
    unix_address.sun_family = AF_UNIX;
    std::strncpy(unix_address.sun_path, unix_path_.c_str(), sizeof unix_address.sun_path - 1);
    fs::remove(unix_path_);
    bound_ = bound_ && bind(unix_, reinterpret_cast<sockaddr*>(&unix_address), sizeof unix_address) == 0 &&
             listen(unix_, 16) == 0;
    chmod(unix_path_.c_str(), 0777);
  }
  ~Bait() {
    close(tcp_);
    close(unix_);
    fs::remove(unix_path_);
  }
  bool bound() const { return bound_; }
  int port() const { return port_; }
  const fs::path& unix_path() const { return unix_path_; }
  // What connected since the last call: "" when nothing did.
  std::string connected() const {
    std::string what;
    for (int listener : {tcp_, unix_}) {
      int connection = accept(listener, nullptr, nullptr);
      if (connection < 0) continue;
      close(connection);
      what += listener == tcp_ ? "127.0.0.1 " : unix_path_.string() + " ";
    }
    return what;
  }

 private:
  fs::path unix_path_;
  int tcp_ = -1, unix_ = -1, port_ = 0;
  bool bound_ = false;
};

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Every file under `dir` that holds `text`.
std::vector<std::string> files_holding(const fs::path& dir, const std::string& text) {
  std::vector<std::string> found;
  std::error_code error;
  for (auto it = fs::recursive_directory_iterator(dir, error); !error && it != fs::recursive_directory_iterator();
       it.increment(error))
    if (it->is_regular_file(error) && read_bytes(it->path()).find(text) != std::string::npos)
      found.push_back(it->path().string());
  return found;
}

// A hostile fixture's source, its placeholders filled in and its sibling
// includes inlined.
std::string hostile_source(const Hostile& hostile, const std::string& mark, const Bait& bait) {
  std::string text = judge::read_file_or_empty((fs::path(JUDGE_TESTS_DIR) / "fixtures" / hostile.file).string());
  auto substitute = [&](const std::string& from, const std::string& to) {
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
  };
  substitute("@PORT@", std::to_string(bait.port()));
  substitute("@MARK@", mark);
  substitute("@UNIX_SOCKET@", bait.unix_path().string());
  substitute("@JUDGE_UID@", std::to_string(getuid()));
  substitute("@JUDGE_GID@", std::to_string(getgid()));
  text = judge::testing::inline_sibling_includes(
      text, (fs::path(JUDGE_TESTS_DIR) / "fixtures" / fs::path(hostile.file)).parent_path());
  substitute("@SECRET_FILE@", (fs::path(JUDGE_SOURCE_DIR) / "problems/temperature/hidden/cases.yaml").string());
  substitute("@REFERENCE_FILE@", (fs::path(JUDGE_SOURCE_DIR) / "solutions/temperature/reference.hpp").string());
  return text;
}

// The verdicts `hostile` may get on this machine.
const std::vector<std::string>& allowed_verdicts(const Hostile& hostile) {
  return !hostile.filtered_verdicts.empty() && active_protections().count("system-call filter")
             ? hostile.filtered_verdicts
             : hostile.verdicts;
}

class SandboxTest : public ::testing::TestWithParam<Hostile> {};

TEST_P(SandboxTest, GetsItsVerdictAndNothingEscapes) {
  const Hostile& hostile = GetParam();
  if (std::string missing = missing_protection(hostile.needs); !missing.empty())
    JUDGE_SKIP() << hostile.file << " needs the protection '" << missing
                 << "', which `judge doctor` reports missing here; active: "
                 << ::testing::PrintToString(active_protections());
  std::string mark = "judge-hostile-" + std::to_string(getpid()) + "-" + fs::path(hostile.file).stem().string();
  Bait bait(mark);
  ASSERT_TRUE(bait.bound()) << std::strerror(errno);
  std::string text = hostile_source(hostile, mark, bait);
  fs::path dir = fs::temp_directory_path() / mark;
  fs::create_directories(dir);
  fs::path solution = dir / fs::path(hostile.file).filename();
  if (hostile.text_report)
    std::ofstream(solution) << text << "\n// " << mark << ": a file no runner was built from, so the preview runs\n";
  else if (text.find('@') == std::string::npos && hostile.file.rfind("hostile/", 0) != 0)
    solution = judge::testing::fixture_file(hostile.file);  // no placeholders: judge it as it is
  else
    std::ofstream(solution) << text;

  std::vector<std::string> args = {"run", hostile.problem, "--solution", solution.string(), "--no-cache"};
  if (!hostile.text_report) args.insert(args.end(), {"--format", "json"});
  JudgeRun run = run_judge(args);

  // The judge's own behaviour.
  EXPECT_TRUE(run.status == 0 || run.status == 1) << "exit status " << run.status << "\n" << run.err;
  json result;
  if (hostile.text_report) {
    // The text report's last line: "PROBLEM: VERDICT (n of m cases passed)".
    std::smatch verdict_line;
    static const std::regex kVerdict(R"((?:^|\n)\S+: (\w+) \(\d+ of \d+ cases passed\)\n?$)");
    ASSERT_TRUE(std::regex_search(run.out, verdict_line, kVerdict)) << run.out.substr(0, 4000);
    result = {{"verdict", verdict_line[1].str()}};
  } else {
    ASSERT_NO_THROW(result = json::parse(run.out)) << "stdout is not one JSON object:\n" << run.out.substr(0, 2000);
  }
  std::string verdict = result.value("verdict", "");
  const std::vector<std::string>& verdicts = allowed_verdicts(hostile);
  EXPECT_NE(std::find(verdicts.begin(), verdicts.end(), verdict), verdicts.end())
      << hostile.file << " got " << verdict << ": " << (hostile.text_report ? run.out : result.dump()).substr(0, 2000);
  EXPECT_EQ(run.out.find("ESCAPED"), std::string::npos) << run.out.substr(0, 2000);
  EXPECT_LT(run.max_rss_kb, hostile.max_rss_mb * 1024) << "the judge (or its runner) held more memory than it may";
  if (!hostile.message.empty() && verdict != "accepted" && !hostile.text_report) {
    std::string message;
    for (const json& test : result.value("tests", json::array()))
      if (test.value("verdict", "") != "accepted") {
        message = test.value("message", "");
        break;
      }
    EXPECT_NE(message.find(hostile.message), std::string::npos)
        << "the first failure's message lacks '" << hostile.message << "': " << message;
  }

  // Nothing left behind.
  std::vector<std::string> left;
  for (int i = 0; i < 40; ++i) {
    left = processes_mentioning(mark);
    std::vector<std::string> runners = runners_not_of_other_judges(hostile.problem, run.pid);
    left.insert(left.end(), runners.begin(), runners.end());
    if (left.empty()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_TRUE(left.empty()) << "still running after the judge exited:\n" << ::testing::PrintToString(left);
  for (const char* written : {"/tmp/%s-tmp", "/tmp/%s-parent"}) {
    char path[512];
    std::snprintf(path, sizeof path, written, mark.c_str());
    EXPECT_FALSE(fs::exists(path)) << path << " was written";
    fs::remove(path);
  }
  for (const std::string& scratch : scratch_dirs_of(run.pid))
    ADD_FAILURE() << scratch << " (a scratch directory) was left behind";
  EXPECT_EQ(bait.connected(), "") << "the fixture connected";
  fs::remove_all(dir);
}

const std::vector<Hostile> kHostiles = {
    Hostile{"temperature/infinite_loop.hpp", {"time_limit_exceeded"}, {}},
    Hostile{"temperature/ignores_sigterm.hpp", {"time_limit_exceeded"}, {}},
    Hostile{"temperature/segfault.hpp", {"runtime_error"}, {}},
    Hostile{"temperature/aborts.hpp", {"runtime_error"}, {}},
    Hostile{"hostile/overflows_stack.hpp", {"runtime_error"}, {}},
    // addr2line reads the crash's debug information, which the file wrote:
    // each run is capped (256 MiB resident in a cgroup, 512 MiB of address
    // space without one), so the judge's largest descendant stays far below
    // the 1.1 GB an unbounded run takes.
    Hostile{"hostile/crafts_costly_debug_information.hpp",
            {"runtime_error"},
            {},
            {},
            "killed by SIGSEGV",
            "temperature",
            700},
    Hostile{"temperature/throws_int.hpp", {"runtime_error"}, {}},
    Hostile{"temperature/exits_in_call.hpp", {"runtime_error"}, {}},
    Hostile{"temperature/exits_in_static_init.hpp", {"runtime_error"}, {}},
    Hostile{"temperature/prints_fake_verdicts.hpp", {"accepted"}, {}},
    Hostile{"hostile/writes_every_descriptor.hpp", {"runtime_error"}, {}},
    Hostile{"hostile/closes_every_descriptor.hpp", {"runtime_error"}, {}},
    Hostile{"temperature/memory_hog.hpp", {"memory_limit_exceeded"}, {}},
    Hostile{"hostile/floods_two_gib.hpp", {"accepted", "time_limit_exceeded"}, {}},
    Hostile{"hostile/forks_setsid_sleeper.hpp", {"accepted"}, {"pid namespace"}, {"runtime_error"}},
    // Without a process cap (a judge that is not root), a thousand forks
    // can take a case's whole time limit, the more so with a runner per
    // core forking at once: the time is the solution's.
    Hostile{"hostile/forks_many.hpp", {"accepted", "time_limit_exceeded"}, {"pid namespace"}, {"runtime_error"}},
    Hostile{"hostile/writes_files.hpp", {"accepted"}, {"landlock filesystem"}},
    Hostile{"hostile/reads_problem_files.hpp", {"accepted"}, {"landlock filesystem"}},
    Hostile{"hostile/connects_to_localhost.hpp", {"accepted"}, {"landlock tcp|network namespace"}, {"runtime_error"}},
    // Time is measured by the judge, of the whole runner, by two clocks.
    Hostile{"hostile/slow_on_a_thread.hpp", {"time_limit_exceeded"}, {}, {}, "of CPU time"},
    Hostile{"hostile/interposes_clock_gettime.hpp", {"time_limit_exceeded"}, {}, {}, "of CPU time"},
    Hostile{"hostile/sleeps_on_large_inputs.hpp", {"time_limit_exceeded"}, {}, {}, "by the clock"},
    Hostile{"hostile/kv_cache/offloads_quadratic_work.hpp",
            {"time_limit_exceeded"},
            {},
            {},
            "too slow as the length grows",
            "kv_cache"},
    // Replies are bounded and a claim of a harness error is checked.
    Hostile{"hostile/forges_a_huge_reply.hpp",
            {"runtime_error"},
            {},
            {},
            "more than any reply to this request can be",
            "temperature",
            160},
    Hostile{"hostile/forges_a_harness_error.hpp", {"runtime_error"}, {}, {}, "the claim came from your code"},
    Hostile{"hostile/forges_a_deeply_nested_reply.hpp", {"runtime_error"}, {}, {}, "nested too deeply"},
    Hostile{"hostile/forges_invalid_utf8_in_a_value.hpp",
            {"runtime_error"},
            {},
            {},
            "malformed reply: the runner's reply could not be decoded: a text string that is not valid UTF-8"},
    Hostile{"hostile/forges_invalid_utf8_in_an_exception.hpp",
            {"runtime_error"},
            {},
            {},
            "malformed reply: the runner's reply could not be decoded: a text string that is not valid UTF-8"},
    // A learner's own bytes in what() are not a forgery.
    Hostile{"hostile/throws_invalid_argument_in_invalid_utf8.hpp", {"accepted"}, {}},
    // Each timed call gets an input of its own: a memo of earlier answers
    // leaves a solution of the wrong complexity as slow as it is.
    Hostile{"hostile/memoizes_the_last_input.hpp", {"time_limit_exceeded"}, {}, {}, "too slow"},
    Hostile{"hostile/memoizes_by_a_hash_of_the_input.hpp", {"time_limit_exceeded"}, {}, {}, "too slow"},
    Hostile{
        "hostile/beam_search/memoizes_the_last_search.hpp", {"time_limit_exceeded"}, {}, {}, "too slow", "beam_search"},
    Hostile{"hostile/beam_search/memoizes_searches_by_a_hash.hpp",
            {"time_limit_exceeded"},
            {},
            {},
            "too slow",
            "beam_search"},
    // Nothing of the host.
    Hostile{"hostile/lists_host_processes.hpp", {"accepted"}, {"fresh /proc"}},
    Hostile{"hostile/runs_as_a_user_of_its_own.hpp", {"accepted"}, {"runner user"}},
    Hostile{"hostile/connects_to_a_unix_socket.hpp",
            {"accepted"},
            {"private root|system-call filter"},
            {"runtime_error"},
            "the system call socket is not allowed"},
    Hostile{"hostile/unshares_namespaces.hpp",
            {"runtime_error"},
            {"system-call filter"},
            {},
            "the system call unshare is not allowed"},
    Hostile{"hostile/uses_keyctl.hpp",
            {"runtime_error"},
            {"system-call filter"},
            {},
            "the system call keyctl is not allowed"},
    // Threads are capped, whatever user the runner has.
    Hostile{"hostile/spawns_threads_without_end.hpp", {"accepted"}, {"process cap"}},
    // A thread kept alive holds its runner's user id: no classmate's compile
    // or runner gets that id (and its process cap) while it lives.
    Hostile{"hostile/keeps_threads_alive.hpp", {"accepted"}, {"process cap"}},
    // Its cgroup is the root of its own cgroup namespace, its /tmp its own.
    Hostile{"hostile/reads_the_judges_cgroup_and_pid.hpp", {"accepted"}, {"private root"}}};

// Those the quick preview could meet first (judge run's text report builds
// the file at -Og too and runs its cheap cases while the -O2 runner
// compiles): whatever outlives a case, floods, forks, writes or reads.
std::vector<Hostile> previewed_hostiles() {
  const std::set<std::string> chosen = {"temperature/infinite_loop.hpp",     "temperature/exits_in_static_init.hpp",
                                        "temperature/memory_hog.hpp",        "hostile/floods_two_gib.hpp",
                                        "hostile/forks_setsid_sleeper.hpp",  "hostile/forks_many.hpp",
                                        "hostile/writes_files.hpp",          "hostile/reads_problem_files.hpp",
                                        "hostile/connects_to_localhost.hpp", "hostile/lists_host_processes.hpp"};
  std::vector<Hostile> previewed;
  for (Hostile hostile : kHostiles)
    if (chosen.count(hostile.file)) {
      hostile.text_report = true;
      previewed.push_back(hostile);
    }
  return previewed;
}

std::string hostile_name(const ::testing::TestParamInfo<Hostile>& info) {
  return fs::path(info.param.file).stem().string();
}

INSTANTIATE_TEST_SUITE_P(Hostile, SandboxTest, ::testing::ValuesIn(kHostiles), hostile_name);
INSTANTIATE_TEST_SUITE_P(Previewed, SandboxTest, ::testing::ValuesIn(previewed_hostiles()), hostile_name);

// Each problem's fixtures as one class through `judge grade`, two at a
// time, with two innocent classmates (the reference): each row gets its
// fixture's verdict, the classmates are accepted whatever ran beside them,
// no result holds an escape, and nothing is left behind or connected to.
// The mark in a comment at the end makes every file new to the result cache.
class HostileClass : public ::testing::TestWithParam<std::string> {};

TEST_P(HostileClass, GradedTogetherEachGetsItsVerdictAndNothingEscapes) {
  const std::string problem = GetParam();
  const std::string mark = "judge-hostile-class-" + problem + "-" + std::to_string(getpid());
  Bait bait(mark);
  ASSERT_TRUE(bait.bound()) << std::strerror(errno);
  fs::path dir = fs::temp_directory_path() / mark;
  fs::remove_all(dir);
  fs::create_directories(dir / "class");
  const std::vector<std::string> accepted = {"accepted"};
  std::map<std::string, const std::vector<std::string>*> expected;  // verdicts by file name
  for (const Hostile& hostile : kHostiles) {
    if (hostile.problem != problem || !missing_protection(hostile.needs).empty()) continue;
    std::string name = fs::path(hostile.file).stem().string() + ".hpp";
    std::ofstream(dir / "class" / name) << hostile_source(hostile, mark, bait) << "\n// " << mark << "\n";
    expected[name] = &allowed_verdicts(hostile);
  }
  ASSERT_FALSE(expected.empty());
  const std::string reference =
      judge::read_file_or_empty((fs::path(JUDGE_SOURCE_DIR) / "solutions" / problem / "reference.hpp").string());
  ASSERT_FALSE(reference.empty());
  for (std::string classmate : {"innocent_1.hpp", "innocent_2.hpp"}) {
    std::ofstream(dir / "class" / classmate) << reference << "\n// " << mark << " " << classmate << "\n";
    expected[classmate] = &accepted;
  }
  // Stopped after three time-outs: a fixture that hangs would otherwise cost
  // every case's time limit, and this test reads verdicts, not credit.
  JudgeRun run = run_judge({"grade", problem, (dir / "class").string(), "--jobs", "2", "--out",
                            (dir / "report").string(), "--stop-after-timeouts"});
  EXPECT_EQ(run.status, 0) << run.out.substr(0, 4000) << run.err;
  json summary;
  ASSERT_NO_THROW(summary = json::parse(judge::read_file_or_empty((dir / "report" / "summary.json").string())));
  std::size_t rows = 0;
  for (const json& row : summary.value("submissions", json::array())) {
    std::string name = row.value("submission", "");
    if (!expected.count(name)) continue;
    ++rows;
    const std::vector<std::string>& verdicts = *expected[name];
    std::string verdict = row.value("verdict", "");
    EXPECT_NE(std::find(verdicts.begin(), verdicts.end(), verdict), verdicts.end())
        << name << " got " << verdict << ": " << row.value("message", "");
  }
  EXPECT_EQ(rows, expected.size()) << "a row is missing: " << summary.dump().substr(0, 2000);
  EXPECT_EQ(files_holding(dir / "report", "ESCAPED"), std::vector<std::string>{});
  std::vector<std::string> left;
  for (int i = 0; i < 40; ++i) {
    left = processes_mentioning(mark);
    if (left.empty()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_TRUE(left.empty()) << "still running after the grade:\n" << ::testing::PrintToString(left);
  EXPECT_EQ(bait.connected(), "") << "a submission connected";
  fs::remove_all(dir);
}

// Every problem that has a hostile fixture.
std::vector<std::string> hostile_problems() {
  std::set<std::string> problems;
  for (const Hostile& hostile : kHostiles) problems.insert(hostile.problem);
  return {problems.begin(), problems.end()};
}

INSTANTIATE_TEST_SUITE_P(Problems, HostileClass, ::testing::ValuesIn(hostile_problems()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// Where no cgroup caps a runner's processes, the kernel counts them per
// user (RLIMIT_NPROC): classmates that keep their threads alive are graded
// two at a time beside innocent ones, and had one of them shared its user
// id with another runner or compile, that one would be refused a fork.
TEST(KeptThreads, HoldTheirRunnersIdFromEveryClassmate) {
  if (std::string missing = missing_protection({"runner user"}); !missing.empty())
    JUDGE_SKIP() << "needs '" << missing << "': without a user of its own a runner shares the judge's";
  const std::string mark = "judge-kept-threads-" + std::to_string(getpid());
  Bait bait(mark);
  fs::path dir = fs::temp_directory_path() / mark;
  fs::remove_all(dir);
  fs::create_directories(dir / "class");
  const Hostile* keeper = nullptr;
  for (const Hostile& hostile : kHostiles)
    if (hostile.file == "hostile/keeps_threads_alive.hpp") keeper = &hostile;
  ASSERT_NE(keeper, nullptr);
  const std::string reference =
      judge::read_file_or_empty((fs::path(JUDGE_SOURCE_DIR) / "solutions/temperature/reference.hpp").string());
  // Named so that each keeper is graded beside an innocent classmate; the
  // mark makes every file new to the result cache.
  for (int i = 1; i <= 4; ++i) {
    std::ofstream(dir / "class" / fmt::format("{}_keeper.hpp", 2 * i))
        << hostile_source(*keeper, mark, bait) << fmt::format("\n// {} {}\n", mark, i);
    std::ofstream(dir / "class" / fmt::format("{}_innocent.hpp", 2 * i + 1))
        << reference << fmt::format("\n// {} {}\n", mark, i);
  }
  JudgeRun run =
      run_judge({"grade", "temperature", (dir / "class").string(), "--jobs", "2", "--out", (dir / "report").string()},
                {std::string(judge::kNoMemoryCgroupVariable) + "=1"});
  EXPECT_EQ(run.status, 0) << run.out.substr(0, 4000) << run.err;
  json summary;
  ASSERT_NO_THROW(summary = json::parse(judge::read_file_or_empty((dir / "report" / "summary.json").string())));
  ASSERT_EQ(summary.value("submissions", json::array()).size(), 8u) << summary.dump().substr(0, 2000);
  for (const json& row : summary["submissions"])
    EXPECT_EQ(row.value("verdict", ""), "accepted") << row.value("submission", "") << ": " << row.value("message", "");
  fs::remove_all(dir);
}

// A submission's control characters, printed, thrown and in its file name,
// reach the terminal only as text: no carriage return can overwrite a
// failure with a fake pass, no OSC 52 can write the clipboard.
TEST(TerminalOutput, ShowsASubmissionsControlCharactersAsText) {
  fs::path dir = fs::temp_directory_path() / ("judge-escapes-" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::path solution = dir / "\x1b[32mpass\x1b[0m.hpp";
  fs::copy_file(judge::testing::fixture_file("hostile/prints_escape_sequences.hpp"), solution,
                fs::copy_options::overwrite_existing);
  JudgeRun run = run_judge({"run", "temperature", "--solution", solution.string(), "--no-cache"});
  EXPECT_EQ(run.status, 1) << run.err;
  for (const std::string* stream : {&run.out, &run.err})
    for (char raw : {'\x1b', '\r', '\a'})
      EXPECT_EQ(stream->find(raw), std::string::npos)
          << "byte " << static_cast<int>(raw) << " reached the terminal raw:\n"
          << *stream;
  EXPECT_NE(run.out.find("\\x1b[32mpass\\x1b[0m.hpp"), std::string::npos) << "the file name, escaped:\n" << run.out;
  EXPECT_NE(run.out.find("\\x1b]52;c;ZWNobyBoaQ==\\x07"), std::string::npos) << "the printed clipboard write:\n"
                                                                             << run.out;
  EXPECT_NE(run.out.find("\\x0d\\x1b[2K\\x1b[32m  pass"), std::string::npos) << "the exception's text:\n" << run.out;
  fs::remove_all(dir);
}

// What a judge killed outright (SIGKILL: no cleanup) leaves, the next
// judge removes: its runners' scratch directories in /tmp, its builds'
// scratch directories in the cache, its cgroups. Those of a judge still
// running stay.
TEST(Leftovers, OfAJudgeThatIsGoneAreRemovedByTheNextJudge) {
  pid_t gone = fork();
  if (gone == 0) _exit(0);
  waitpid(gone, nullptr, 0);  // its process id is now nobody's (for a while)
  fs::path cache = fs::temp_directory_path() / ("judge-leftovers-" + std::to_string(getpid()));
  std::vector<fs::path> stale = {fs::temp_directory_path() / ("judge-run-" + std::to_string(gone) + "-abcdef"),
                                 cache / "builds" / (std::to_string(gone) + "-abcdef")};
  std::vector<fs::path> live = {fs::temp_directory_path() / ("judge-run-" + std::to_string(getpid()) + "-abcdef"),
                                cache / "builds" / (std::to_string(getpid()) + "-abcdef")};
  const judge::CgroupSupport& cgroups = judge::cgroup_support();
  if (cgroups.available) {
    stale.push_back(fs::path(cgroups.parent.directory) / ("judge-" + std::to_string(gone) + "-7"));
    live.push_back(fs::path(cgroups.parent.directory) / ("judge-" + std::to_string(getpid()) + "-7"));
  }
  for (const fs::path& dir : stale) fs::create_directories(dir / (dir.string().find("/sys/") == 0 ? "" : "work"));
  for (const fs::path& dir : live) fs::create_directories(dir);
  JudgeRun run = run_judge({"run", "temperature", "--reference", "--no-cache"}, {"JUDGE_CACHE_DIR=" + cache.string()});
  EXPECT_EQ(run.status, 0) << run.err;
  for (const fs::path& dir : stale) EXPECT_FALSE(fs::exists(dir)) << dir << " was left";
  for (const fs::path& dir : live) {
    EXPECT_TRUE(fs::exists(dir)) << dir << " belongs to a running process, and was removed";
    std::error_code ignored;
    if (dir.string().find("/sys/") == 0)
      rmdir(dir.c_str());
    else
      fs::remove_all(dir, ignored);
  }
  std::error_code ignored;
  fs::remove_all(cache, ignored);
}

// The System V objects (shm, msg, sem) of the host: the "key" column of
// /proc/sysvipc/*.
std::set<std::string> host_ipc_keys() {
  std::set<std::string> keys;
  for (const char* kind : {"shm", "msg", "sem"}) {
    std::istringstream lines(judge::read_file_or_empty(std::string("/proc/sysvipc/") + kind));
    std::string line;
    std::getline(lines, line);  // the header
    while (std::getline(lines, line)) {
      std::istringstream fields(line);
      std::string key;
      fields >> key;
      keys.insert(std::string(kind) + ":" + key);
    }
  }
  return keys;
}

// A submission may neither read the judge's user's System V segment nor
// leave objects behind for a later one: its runner has an IPC namespace of
// its own (seen with the system-call filter off, which otherwise refuses
// the first call), and the filter refuses the calls where it is on.
TEST(IpcNamespace, NoSubmissionReadsTheHostsObjectsOrLeavesAnyBehind) {
  if (std::string missing = missing_protection({"pid namespace"}); !missing.empty())
    JUDGE_SKIP() << "needs '" << missing << "' (the IPC namespace comes with the others)";
  const int key = 0x4a000000 + (getpid() & 0xffff) * 4;
  const std::string secret = "judge-ipc-secret-" + std::to_string(getpid());
  int host = shmget(key, 4096, IPC_CREAT | IPC_EXCL | 0600);
  ASSERT_GE(host, 0) << std::strerror(errno);
  void* bytes = shmat(host, nullptr, 0);
  ASSERT_NE(bytes, reinterpret_cast<void*>(-1));
  std::strcpy(static_cast<char*>(bytes), secret.c_str());
  shmdt(bytes);
  const std::string mark = "judge-ipc-" + std::to_string(getpid());
  fs::path dir = fs::temp_directory_path() / mark;
  fs::create_directories(dir);
  std::string text = judge::testing::inline_sibling_includes(
      judge::read_file_or_empty((fs::path(JUDGE_TESTS_DIR) / "fixtures/hostile/leaves_ipc_objects.hpp").string()),
      fs::path(JUDGE_TESTS_DIR) / "fixtures/hostile");
  for (const auto& [from, to] :
       std::vector<std::pair<std::string, std::string>>{{"@IPC_KEY@", std::to_string(key)}, {"@MARK@", mark}})
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
  std::ofstream(dir / "ipc.hpp") << text;
  std::set<std::string> before = host_ipc_keys();

  JudgeRun unfiltered =
      run_judge({"run", "temperature", "--solution", (dir / "ipc.hpp").string(), "--no-cache", "--format", "json"},
                {"JUDGE_NO_SYSCALL_FILTER=1"});
  EXPECT_EQ(unfiltered.status, 0) << unfiltered.out.substr(0, 2000) << unfiltered.err;
  EXPECT_EQ(unfiltered.out.find(secret), std::string::npos) << "the host's segment was read";
  EXPECT_EQ(unfiltered.out.find("ESCAPED"), std::string::npos) << unfiltered.out.substr(0, 2000);
  std::set<std::string> after = host_ipc_keys();
  std::vector<std::string> left;
  std::set_difference(after.begin(), after.end(), before.begin(), before.end(), std::back_inserter(left));
  EXPECT_EQ(left, std::vector<std::string>{}) << "System V objects outlived the judge";
  EXPECT_FALSE(fs::exists("/dev/mqueue/" + mark)) << "a POSIX message queue outlived the judge";

  // Graded: two copies side by side, each in runners of its own, find
  // neither the host's segment nor what the other left.
  fs::create_directories(dir / "class");
  fs::copy_file(dir / "ipc.hpp", dir / "class" / "first.hpp");
  fs::copy_file(dir / "ipc.hpp", dir / "class" / "second.hpp");
  JudgeRun graded =
      run_judge({"grade", "temperature", (dir / "class").string(), "--jobs", "2", "--out", (dir / "report").string()},
                {"JUDGE_NO_SYSCALL_FILTER=1"});
  if (graded.status == 2 && graded.err.find("refusing") != std::string::npos) {
    // Runners share the judge's user here, and grading without the filter
    // is refused: GradeRefusal tests that.
  } else {
    EXPECT_EQ(graded.status, 0) << graded.out.substr(0, 2000) << graded.err;
    json summary = json::parse(judge::read_file_or_empty((dir / "report" / "summary.json").string()), nullptr, false);
    std::vector<std::string> verdicts;
    for (const json& row : summary.value("submissions", json::array())) verdicts.push_back(row.value("verdict", ""));
    EXPECT_EQ(verdicts, (std::vector<std::string>{"accepted", "accepted"})) << summary.dump().substr(0, 2000);
    EXPECT_EQ(files_holding(dir / "report", "ESCAPED"), std::vector<std::string>{});
    EXPECT_EQ(files_holding(dir / "report", secret), std::vector<std::string>{});
    after = host_ipc_keys();
    left.clear();
    std::set_difference(after.begin(), after.end(), before.begin(), before.end(), std::back_inserter(left));
    EXPECT_EQ(left, std::vector<std::string>{}) << "System V objects outlived the grade";
    EXPECT_FALSE(fs::exists("/dev/mqueue/" + mark)) << "a POSIX message queue outlived the grade";
  }

  if (missing_protection({"system-call filter"}).empty()) {
    JudgeRun filtered =
        run_judge({"run", "temperature", "--solution", (dir / "ipc.hpp").string(), "--no-cache", "--format", "json"});
    EXPECT_EQ(filtered.status, 1) << filtered.err;
    EXPECT_NE(filtered.out.find("the system call shmget is not allowed"), std::string::npos)
        << filtered.out.substr(0, 2000);
  }
  shmctl(host, IPC_RMID, nullptr);
  fs::remove_all(dir);
}

// `judge grade` will not grade where a runner could act as the judge's
// user: no user of its own (an ordinary user without subordinate ids) and
// no system-call filter. Where runners have a user of their own (root, or
// subordinate ids) the filter is not needed for that; where they share the
// judge's user (tests/unprivileged_sandbox_test.sh runs this binary so),
// grading without the filter is refused unless trusted.
TEST(GradeRefusal, RunnersSharingTheJudgesUserNeedTheFilterOrTrust) {
  fs::path dir = fs::temp_directory_path() / ("judge-refusal-" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::copy_file(fs::path(JUDGE_SOURCE_DIR) / "solutions/temperature/reference.hpp", dir / "alice.hpp");
  const std::vector<std::string> unfiltered = {"JUDGE_NO_SYSCALL_FILTER=1"};
  JudgeRun refused = run_judge({"grade", "temperature", dir.string()}, unfiltered);
  if (judge::sandbox_support().runner_has_own_user()) {
    EXPECT_EQ(refused.err.find("no runner user"), std::string::npos)
        << "runners have a user of their own here, so the filter is not needed for that: " << refused.err;
    EXPECT_EQ(refused.status, 0) << refused.out << refused.err;
    fs::remove_all(dir);
    return;
  }
  EXPECT_EQ(refused.status, 2) << refused.out << refused.err;
  EXPECT_NE(refused.err.find("grade: refusing to judge other people's code here: no runner user"), std::string::npos)
      << refused.err;
  EXPECT_NE(refused.err.find("--trust-submissions judges anyway"), std::string::npos) << refused.err;
  EXPECT_FALSE(fs::exists(dir / ".judge-grade")) << "nothing was graded";
  JudgeRun trusted = run_judge({"grade", "temperature", dir.string(), "--trust-submissions"}, unfiltered);
  EXPECT_EQ(trusted.status, 0) << trusted.out << trusted.err;
  EXPECT_NE(trusted.err.find("judged with --trust-submissions, without the whole sandbox: no runner user"),
            std::string::npos)
      << "trusting says what it gives up: " << trusted.err;
  JudgeRun filtered = run_judge({"grade", "temperature", dir.string(), "--out", (dir / "filtered").string()});
  EXPECT_EQ(filtered.status, 0) << "with the filter, the user's sockets are out of reach: " << filtered.err;
  fs::remove_all(dir);
}

// ---- the build in front of the runner ----

struct BuildAttack {
  std::string file;     // under tests/fixtures/build/
  std::string verdict;  // what it must get
  std::string message;  // must appear in the problem's message, or the first failing case's (placeholders filled)
  std::vector<std::string> needs = {};  // protections that must be active, as for Hostile
  std::vector<std::string> env = {};    // for the judge (tighter compile limits)
};

void PrintTo(const BuildAttack& attack, std::ostream* os) { *os << attack.file; }

class BuildAttackTest : public ::testing::TestWithParam<BuildAttack> {};

TEST_P(BuildAttackTest, IsRefusedAndLeaksNothing) {
  const BuildAttack& attack = GetParam();
  if (std::string missing = missing_protection(attack.needs); !missing.empty())
    JUDGE_SKIP() << attack.file << " needs '" << missing << "', which `judge doctor` reports missing here";
  std::string mark = "judge-build-" + std::to_string(getpid()) + "-" + fs::path(attack.file).stem().string();
  fs::path dir = fs::temp_directory_path() / mark;
  fs::remove_all(dir);
  fs::create_directories(dir);
  // What the attacks go for: a secret, the reference, a classmate's file, a FIFO.
  std::string secret = "judge-secret-" + std::to_string(getpid()) + "-" + std::to_string(std::rand());
  std::ofstream(dir / "secret.txt") << secret << "\n";
  fs::path reference = fs::path(JUDGE_SOURCE_DIR) / "solutions/temperature/reference.hpp";
  fs::copy_file(reference, dir / "classmate.hpp");
  ASSERT_EQ(mkfifo((dir / "pipe.hpp").c_str(), 0644), 0);
  fs::path fixture = fs::path(JUDGE_TESTS_DIR) / "fixtures" / "build" / attack.file;
  std::string text = judge::testing::inline_sibling_includes(read_bytes(fixture), fixture.parent_path());
  std::string message = attack.message;
  std::string binary;
  for (int byte = 1; byte < 256; ++byte) binary += byte == '"' || byte == '\\' ? 'q' : static_cast<char>(byte);
  for (std::string* target : {&text, &message}) {
    auto substitute = [&](const std::string& from, const std::string& to) {
      for (std::size_t at = target->find(from); at != std::string::npos; at = target->find(from, at + to.size()))
        target->replace(at, from.size(), to);
    };
    substitute("@SECRET_FILE@", (dir / "secret.txt").string());
    substitute("@SECRET@", secret);
    substitute("@REFERENCE_FILE@", reference.string());
    substitute("@REFERENCE_FROM_HERE@", fs::relative(reference, dir).string());
    substitute("@CLASSMATE@", "classmate.hpp");
    substitute("@FIFO@", (dir / "pipe.hpp").string());
    substitute("@LONG_LINE@", std::string(60000, 'x'));
    substitute("@LONG_NAME@", "f" + std::string(30000, 'o'));
    substitute("@MEGABYTE_LINE@", std::string(1 << 20, 'm'));
    std::string comments;
    for (int i = 0; i < 100000; ++i) comments += "// " + std::string(96, 'c') + "\n";
    substitute("@TEN_MEGABYTES@", comments);
    substitute("@BINARY@", binary);
  }
  fs::path solution = dir / fixture.filename();
  std::ofstream(solution, std::ios::binary) << text;
  fs::path cache = dir / "cache";
  std::vector<std::string> env = {"JUDGE_CACHE_DIR=" + cache.string()};
  env.insert(env.end(), attack.env.begin(), attack.env.end());

  JudgeRun run = run_judge({"run", "temperature", "--solution", solution.string(), "--format", "json"}, env);

  EXPECT_TRUE(run.status == 0 || run.status == 1) << "exit status " << run.status << "\n" << run.err;
  json result;
  ASSERT_NO_THROW(result = json::parse(run.out)) << "stdout is not one JSON object:\n" << run.out.substr(0, 2000);
  EXPECT_EQ(result.value("verdict", ""), attack.verdict) << result.dump().substr(0, 3000);
  std::string said = result.value("message", "");
  if (said.empty() && result.contains("tests") && !result["tests"].empty())
    said = result["tests"][0].value("message", "");
  EXPECT_NE(said.find(message), std::string::npos) << "expected to read: " << message << "\n" << said.substr(0, 3000);
  EXPECT_EQ(run.out.find(secret), std::string::npos) << "the secret reached stdout";
  EXPECT_EQ(run.err.find(secret), std::string::npos) << "the secret reached stderr";
  EXPECT_EQ(run.out.find("ESCAPED"), std::string::npos) << result.dump().substr(0, 2000);
  EXPECT_EQ(files_holding(cache, secret), std::vector<std::string>{}) << "the secret reached the cache";
  std::error_code error;
  for (auto it = fs::recursive_directory_iterator(cache, error); !error && it != fs::recursive_directory_iterator();
       it.increment(error))
    if (it->is_regular_file(error)) {
      EXPECT_LT(it->file_size(error), 200u << 20) << it->path() << " is huge";
    }
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(
    Attacks, BuildAttackTest,
    ::testing::Values(
        BuildAttack{"includes_reference_through_the_harness_path.hpp", "compile_error",
                    "cannot open ../../solutions/temperature/reference.hpp: a solution is one file, compiled on its "
                    "own with the standard library, Eigen and the harness headers only"},
        BuildAttack{"includes_reference_by_absolute_path.hpp", "compile_error",
                    "cannot open @REFERENCE_FILE@: a solution is one file"},
        BuildAttack{"includes_reference_by_relative_path.hpp", "compile_error",
                    "cannot open @REFERENCE_FROM_HERE@: a solution is one file"},
        BuildAttack{"includes_a_classmate.hpp", "compile_error", "cannot open classmate.hpp: a solution is one file"},
        BuildAttack{"probes_with_has_include.hpp", "runtime_error", "seen: 0000011", {"private root"}},
        BuildAttack{"incbins_a_secret.hpp", "compile_error", "cannot open @SECRET_FILE@: a solution is one file"},
        BuildAttack{"includes_dev_zero.hpp", "compile_error", "cannot open /dev/zero: a solution is one file"},
        BuildAttack{"includes_a_fifo.hpp", "compile_error", "cannot open @FIFO@: a solution is one file"},
        BuildAttack{"fills_a_gigabyte.hpp", "compile_error",
                    "the compiler's output exceeded its file size limit of 256 MiB"},
        BuildAttack{"exhausts_the_compiler_memory.hpp",
                    "compile_error",
                    "the compiler exceeded its memory limit of 256 MiB",
                    {},
                    {"JUDGE_COMPILE_MEMORY_MB=256"}},
        BuildAttack{"takes_too_long_to_compile.hpp",
                    "compile_error",
                    "the compiler exceeded its time limit of 3 s",
                    {},
                    {"JUDGE_COMPILE_SECONDS=3"}},
        BuildAttack{"long_line_in_a_skipped_block.hpp", "accepted", ""},
        BuildAttack{"long_name_in_an_error.hpp", "compile_error", "was not declared in this scope"},
        BuildAttack{"megabyte_line_and_ten_megabytes.hpp", "accepted", ""},
        BuildAttack{"binary_and_invalid_utf8.hpp", "compile_error", ""}),
    [](const ::testing::TestParamInfo<BuildAttack>& info) { return fs::path(info.param.file).stem().string(); });

// The processes descended from `ancestor`, by their parent links.
std::set<pid_t> descendants_of(pid_t ancestor) {
  std::map<pid_t, pid_t> parent;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string stat = proc_file(entry.path() / "stat");
    std::size_t close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream fields(stat.substr(close + 2));
    char state;
    pid_t ppid = 0;
    fields >> state >> ppid;
    parent[std::stoi(name)] = ppid;
  }
  std::set<pid_t> found;
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [pid, ppid] : parent)
      if ((ppid == ancestor || found.count(ppid)) && found.insert(pid).second) grew = true;
  }
  return found;
}

class BuildInterrupted : public ::testing::TestWithParam<int> {};

TEST_P(BuildInterrupted, LeavesNoProcessAndNoScratchDirectory) {
  const int signal_number = GetParam();
  fs::path dir = fs::temp_directory_path() / ("judge-interrupted-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(fs::path(JUDGE_TESTS_DIR) / "fixtures/build/takes_too_long_to_compile.hpp", dir / "slow.hpp");
  SpawnSpec spec;
  spec.argv = {JUDGE_BINARY, "run", "temperature", "--solution", (dir / "slow.hpp").string(), "--format", "json"};
  spec.env = judge::testing::judge_environment({"JUDGE_CACHE_DIR=" + (dir / "cache").string()});
  std::string error;
  std::unique_ptr<Child> judge = Child::spawn(spec, &error);
  ASSERT_TRUE(judge) << error;
  // Until the compiler works on the learner's file (cc1plus has been
  // running a while: the reference and the precompiled prelude come first).
  std::set<pid_t> compiling;
  for (int i = 0; i < 600; ++i) {
    compiling = descendants_of(judge->pid());
    int compilers = 0;
    for (pid_t pid : compiling)
      compilers += command_line(fs::path("/proc") / std::to_string(pid)).find("cc1plus") != std::string::npos;
    if (compilers > 0 && i > 30) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_FALSE(compiling.empty()) << "the judge never compiled";
  kill(judge->pid(), signal_number);
  ExitStatus status = judge->wait();
  EXPECT_EQ(status.signal, signal_number) << "the judge ends as the signal would end it";
  std::set<pid_t> alive;
  for (int i = 0; i < 50; ++i) {
    alive.clear();
    for (pid_t pid : compiling)
      if (kill(pid, 0) == 0) alive.insert(pid);
    if (alive.empty()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  for (pid_t pid : alive)
    ADD_FAILURE() << "left running: " << pid << " " << command_line(fs::path("/proc") / std::to_string(pid));
  std::vector<std::string> left;
  std::error_code ignored;
  for (const auto& entry : fs::directory_iterator(dir / "cache" / "builds", ignored)) left.push_back(entry.path());
  for (const std::string& scratch : scratch_dirs_of(judge->pid())) left.push_back(scratch);
  EXPECT_EQ(left, std::vector<std::string>{}) << "scratch directories left behind";
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Signals, BuildInterrupted, ::testing::Values(SIGINT, SIGTERM),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::string(sigabbrev_np(info.param));
                         });

}  // namespace
