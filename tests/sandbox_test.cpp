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
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "run_judge.hpp"

namespace {
namespace fs = std::filesystem;
using nlohmann::json;

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

// A process's command line, arguments joined by spaces; empty when it is
// gone (it may exit while being read) or unreadable.
std::string command_line(const fs::path& process) {
  try {
    std::ifstream in(process / "cmdline");
    std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    return cmdline;
  } catch (const std::exception&) {
    return "";
  }
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

// Running temperature runners, except those working in another judge's
// scratch directory (tests running at the same time): a runner's program
// name is its binary, "…/temperature-HASH" (a compiler only mentions that
// path among its arguments).
std::vector<std::string> temperature_runners_not_of_other_judges(pid_t judge) {
  std::vector<std::string> found;
  std::string others = "/tmp/judge-run-", ours = others + std::to_string(judge) + "-";
  for (const std::string& process : processes_mentioning("/temperature-")) {
    std::string pid = process.substr(0, process.find(':'));
    std::string cmdline = process.substr(process.find(':') + 2);
    std::string program = cmdline.substr(0, cmdline.find(' '));
    if (program.find("/temperature-") == std::string::npos) continue;
    std::error_code unreadable;
    std::string cwd = fs::read_symlink(fs::path("/proc") / pid / "cwd", unreadable).string();
    if (!unreadable && cwd.rfind(others, 0) == 0 && cwd.rfind(ours, 0) != 0) continue;
    found.push_back(process);
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
};

void PrintTo(const Hostile& hostile, std::ostream* os) { *os << hostile.file; }

class SandboxTest : public ::testing::TestWithParam<Hostile> {};

TEST_P(SandboxTest, GetsItsVerdictAndNothingEscapes) {
  const Hostile& hostile = GetParam();
  for (const std::string& group : hostile.needs) {
    bool any = false;
    std::stringstream alternatives(group);
    for (std::string name; std::getline(alternatives, name, '|');) any = any || active_protections().count(name);
    if (!any)
      GTEST_SKIP() << hostile.file << " needs the protection '" << group
                   << "', which `judge doctor` reports missing here; active: "
                   << ::testing::PrintToString(active_protections());
  }
  // A listener the fixture may try to reach.
  int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(listen(listener, 16), 0);
  socklen_t length = sizeof address;
  getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length);

  std::string mark = "judge-hostile-" + std::to_string(getpid()) + "-" + fs::path(hostile.file).stem().string();
  std::string text;
  {
    std::ifstream in(fs::path(JUDGE_TESTS_DIR) / "fixtures" / hostile.file);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  auto substitute = [&](const std::string& from, const std::string& to) {
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
  };
  substitute("@PORT@", std::to_string(ntohs(address.sin_port)));
  substitute("@MARK@", mark);
  substitute("@FIXTURES@", (fs::path(JUDGE_TESTS_DIR) / "fixtures" / "hostile").string());
  substitute("@SECRET_FILE@", (fs::path(JUDGE_SOURCE_DIR) / "problems/temperature/hidden/cases.yaml").string());
  substitute("@REFERENCE_FILE@", (fs::path(JUDGE_SOURCE_DIR) / "solutions/temperature/reference.hpp").string());
  fs::path dir = fs::temp_directory_path() / mark;
  fs::create_directories(dir);
  fs::path solution = dir / fs::path(hostile.file).filename();
  if (text.find('@') == std::string::npos && hostile.file.rfind("hostile/", 0) != 0)
    solution = fs::path(JUDGE_TESTS_DIR) / "fixtures" / hostile.file;  // no placeholders: judge it where it is
  else
    std::ofstream(solution) << text;

  JudgeRun run = run_judge({"run", "temperature", "--solution", solution.string(), "--format", "json", "--no-cache"});

  // The judge's own behaviour.
  EXPECT_TRUE(run.status == 0 || run.status == 1) << "exit status " << run.status << "\n" << run.err;
  json result;
  ASSERT_NO_THROW(result = json::parse(run.out)) << "stdout is not one JSON object:\n" << run.out.substr(0, 2000);
  std::string verdict = result.value("verdict", "");
  EXPECT_NE(std::find(hostile.verdicts.begin(), hostile.verdicts.end(), verdict), hostile.verdicts.end())
      << hostile.file << " got " << verdict << ": " << result.dump().substr(0, 2000);
  EXPECT_EQ(run.out.find("ESCAPED"), std::string::npos) << result.dump().substr(0, 2000);
  EXPECT_LT(run.max_rss_kb, 1200 * 1024) << "the judge (or its runner) held more memory than the runner's limit";

  // Nothing left behind.
  std::vector<std::string> left;
  for (int i = 0; i < 40; ++i) {
    left = processes_mentioning(mark);
    std::vector<std::string> runners = temperature_runners_not_of_other_judges(run.pid);
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
  int connection = accept(listener, nullptr, nullptr);
  EXPECT_LT(connection, 0) << "the fixture connected to 127.0.0.1";
  if (connection >= 0) close(connection);
  close(listener);
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(
    Hostile, SandboxTest,
    ::testing::Values(Hostile{"temperature/infinite_loop.hpp", {"time_limit_exceeded"}, {}},
                      Hostile{"temperature/ignores_sigterm.hpp", {"time_limit_exceeded"}, {}},
                      Hostile{"temperature/segfault.hpp", {"runtime_error"}, {}},
                      Hostile{"temperature/aborts.hpp", {"runtime_error"}, {}},
                      Hostile{"hostile/overflows_stack.hpp", {"runtime_error"}, {}},
                      Hostile{"temperature/throws_int.hpp", {"runtime_error"}, {}},
                      Hostile{"temperature/exits_in_call.hpp", {"runtime_error"}, {}},
                      Hostile{"temperature/exits_in_static_init.hpp", {"runtime_error"}, {}},
                      Hostile{"temperature/prints_fake_verdicts.hpp", {"accepted"}, {}},
                      Hostile{"hostile/writes_every_descriptor.hpp", {"runtime_error"}, {}},
                      Hostile{"hostile/closes_every_descriptor.hpp", {"runtime_error"}, {}},
                      Hostile{"temperature/memory_hog.hpp", {"memory_limit_exceeded"}, {}},
                      Hostile{"hostile/floods_two_gib.hpp", {"accepted", "time_limit_exceeded"}, {}},
                      Hostile{"hostile/forks_setsid_sleeper.hpp", {"accepted"}, {"pid namespace"}},
                      // Without a process cap (a judge that is not root), a thousand forks
                      // can take a case's whole time limit, the more so with a runner per
                      // core forking at once: the time is the solution's.
                      Hostile{"hostile/forks_many.hpp", {"accepted", "time_limit_exceeded"}, {"pid namespace"}},
                      Hostile{"hostile/writes_files.hpp", {"accepted"}, {"landlock filesystem"}},
                      Hostile{"hostile/reads_problem_files.hpp", {"accepted"}, {"landlock filesystem"}},
                      Hostile{"hostile/connects_to_localhost.hpp", {"accepted"}, {"landlock tcp|network namespace"}}),
    [](const ::testing::TestParamInfo<Hostile>& info) {
      std::string name = fs::path(info.param.file).stem().string();
      return name;
    });
}  // namespace
