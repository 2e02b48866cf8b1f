// The process layer: Child and run_command (exit codes, signals, killing the
// whole group, bounded capture, a clean environment, closed descriptors),
// and RunnerSession against fake runners that misbehave on the channel.
#include "sandbox/process.hpp"
#include "skip_here.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "run/number_list.hpp"
#include "run/runner_session.hpp"
#include "sandbox/limited_command.hpp"
#include "sandbox/sandbox.hpp"

namespace judge {
namespace {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

SpawnSpec shell(const std::string& script, std::vector<std::string> env = {"PATH=/usr/bin:/bin"}) {
  SpawnSpec spec;
  spec.argv = {"/bin/sh", "-c", script};
  spec.env = std::move(env);
  return spec;
}

// Drains a child until it exits, keeping what it printed.
ExitStatus drain_until_exit(Child& child, CapturedOutput* out, CapturedOutput* err) {
  while (!child.poll_exited()) {
    pollfd fds[2] = {{child.stdout_fd(), POLLIN, 0}, {child.stderr_fd(), POLLIN, 0}};
    poll(fds, 2, 50);
    child.drain(out, err);
  }
  child.drain(out, err);
  return child.wait();
}

// True once no process of group `pgid` exists (within `timeout_ms`). The test
// becomes a subreaper so that orphaned members are reparented to it and can
// be reaped here rather than lingering as zombies.
bool group_gone(pid_t pgid, int timeout_ms = 2000) {
  auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    while (waitpid(-pgid, nullptr, WNOHANG) > 0) {
    }
    if (kill(-pgid, 0) == -1 && errno == ESRCH) return true;
    if (Clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// Reads the child's stdout until it printed `line` (or 5 s passed): a
// script says "ready" once its background processes exist.
bool wait_for_output(Child& child, const std::string& line) {
  CapturedOutput out;
  auto deadline = Clock::now() + std::chrono::seconds(5);
  while (out.head.find(line) == std::string::npos && Clock::now() < deadline) {
    pollfd fds[1] = {{child.stdout_fd(), POLLIN, 0}};
    poll(fds, 1, 50);
    child.drain(&out, nullptr);
  }
  return out.head.find(line) != std::string::npos;
}

class ProcessTest : public ::testing::Test {
 protected:
  void SetUp() override { prctl(PR_SET_CHILD_SUBREAPER, 1); }
  void TearDown() override { prctl(PR_SET_CHILD_SUBREAPER, 0); }
};

TEST_F(ProcessTest, ExitCodesAreReported) {
  for (int code : {0, 1, 3, 97, 255}) {
    CommandResult result = run_command(shell("exit " + std::to_string(code)), 5000);
    ASSERT_TRUE(result.started) << result.error;
    EXPECT_FALSE(result.timed_out);
    EXPECT_TRUE(result.status.exited) << code;
    EXPECT_EQ(result.status.code, code);
    EXPECT_EQ(result.status.signal, 0);
  }
}

TEST_F(ProcessTest, SignalsAreReportedAsSignalsNotExitCodes) {
  for (int signal : {SIGSEGV, SIGABRT, SIGKILL, SIGTERM, SIGXCPU}) {
    CommandResult result = run_command(shell("kill -" + std::to_string(signal) + " $$"), 5000);
    ASSERT_TRUE(result.started) << result.error;
    EXPECT_FALSE(result.status.exited) << signal;
    EXPECT_EQ(result.status.signal, signal);
  }
}

// A forked child starts with the judge's pages, and the kernel's peak keeps
// them across exec: a judge grown large must not make every child it
// starts look large (a crash would then read as memory_limit_exceeded).
TEST_F(ProcessTest, AChildsPeakMemoryIsItsOwnNotTheJudgesAtFork) {
  std::vector<char> judge_pages(std::size_t{128} << 20);
  for (std::size_t i = 0; i < judge_pages.size(); i += 4096) judge_pages[i] = 1;
  CommandResult small = run_command(shell("exit 0"), 5000);
  ASSERT_TRUE(small.started) << small.error;
  EXPECT_LT(small.status.max_rss_kb, 64 * 1024) << "the judge's own 128 MiB were counted as the child's";
  // A child that really grows past the judge is measured: a 256 MiB string.
  CommandResult large =
      run_command(shell("awk 'BEGIN { s = \"x\"; for (i = 0; i < 28; i++) s = s s; print length(s) }'"), 20000);
  ASSERT_TRUE(large.started) << large.error;
  EXPECT_EQ(large.output, "268435456\n");
  EXPECT_GE(large.status.max_rss_kb, 256 * 1024);
  EXPECT_EQ(judge_pages[4096], 1);  // the pages stayed in use throughout
}

TEST_F(ProcessTest, DescribeSignalNamesTheSignal) {
  EXPECT_EQ(describe_signal(SIGSEGV), "SIGSEGV (Segmentation fault)");
  EXPECT_EQ(describe_signal(SIGABRT), "SIGABRT (Aborted)");
  EXPECT_EQ(describe_signal(SIGKILL), "SIGKILL (Killed)");
}

TEST_F(ProcessTest, OutputOfStdoutAndStderrIsCaptured) {
  CommandResult result = run_command(shell("echo out; echo err >&2"), 5000);
  EXPECT_TRUE(result.status.exited);
  EXPECT_NE(result.output.find("out\n"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("err\n"), std::string::npos) << result.output;
}

TEST_F(ProcessTest, TimeoutKillsTheChildAndItsGrandchildren) {
  auto start = Clock::now();
  // The shell prints its pid (its group) once the background sleep exists.
  CommandResult result = run_command(shell("sleep 100 & echo $$; sleep 100"), 1000);
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  ASSERT_TRUE(result.started) << result.error;
  EXPECT_TRUE(result.timed_out);
  EXPECT_LT(seconds, 5.0) << "the timeout did not stop the command";
  EXPECT_FALSE(result.status.exited);
  EXPECT_EQ(result.status.signal, SIGKILL);
  ASSERT_FALSE(result.output.empty()) << "killed before it started its background process";
  pid_t pgid = static_cast<pid_t>(std::stol(result.output));
  EXPECT_TRUE(group_gone(pgid)) << "a process of group " << pgid << " survived the timeout";
}

TEST_F(ProcessTest, KillGroupReachesBackgroundedGrandchildren) {
  std::string error;
  std::unique_ptr<Child> child = Child::spawn(shell("sleep 100 & sleep 100 & echo ready; wait"), &error);
  ASSERT_TRUE(child) << error;
  ASSERT_TRUE(wait_for_output(*child, "ready"));
  pid_t pgid = child->pid();
  child->kill_group();
  ExitStatus status = child->wait();
  EXPECT_EQ(status.signal, SIGKILL);
  EXPECT_TRUE(group_gone(pgid));
}

TEST_F(ProcessTest, DestroyingARunningChildKillsItsGroup) {
  std::string error;
  pid_t pgid;
  {
    std::unique_ptr<Child> child = Child::spawn(shell("sleep 100 & echo ready; sleep 100"), &error);
    ASSERT_TRUE(child) << error;
    ASSERT_TRUE(wait_for_output(*child, "ready"));
    pgid = child->pid();
  }
  EXPECT_TRUE(group_gone(pgid));
}

TEST_F(ProcessTest, FloodIsCappedWhileTheTotalCountsEverything) {
  std::string error;
  std::unique_ptr<Child> child =
      Child::spawn(shell("head -c 10000000 /dev/zero; head -c 3000000 /dev/zero >&2"), &error);
  ASSERT_TRUE(child) << error;
  CapturedOutput out(1000), err(500);
  ExitStatus status = drain_until_exit(*child, &out, &err);
  EXPECT_TRUE(status.exited);
  EXPECT_EQ(out.total, 10000000u);
  EXPECT_EQ(out.head.size(), 1000u);
  EXPECT_EQ(err.total, 3000000u);
  EXPECT_EQ(err.head.size(), 500u);

  CommandResult result = run_command(shell("head -c 10000000 /dev/zero"), 10000);
  EXPECT_TRUE(result.status.exited) << "the flood must not block the child";
  EXPECT_EQ(result.output.size(), 1u << 20) << "run_command keeps the first MiB";
}

TEST_F(ProcessTest, ACancelledCommandIsKilledAndSaysSo) {
  CancelSignal cancel;
  std::thread raiser([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    cancel.raise();
  });
  CommandResult result = run_command(shell("sleep 100 & echo started; sleep 100; wait"), 100000, 1 << 20, &cancel);
  raiser.join();
  EXPECT_TRUE(result.started);
  EXPECT_TRUE(result.cancelled);
  EXPECT_FALSE(result.timed_out) << "a cancel is not the time limit";
  EXPECT_EQ(result.status.signal, SIGKILL);
  EXPECT_EQ(result.output, "started\n");
  // Once raised, nothing more starts.
  CommandResult after = run_command(shell("echo never"), 5000, 1 << 20, &cancel);
  EXPECT_FALSE(after.started);
  EXPECT_TRUE(after.cancelled);
  EXPECT_EQ(after.output, "");
  // An unraised signal changes nothing.
  CancelSignal quiet;
  CommandResult ordinary = run_command(shell("echo fine"), 5000, 1 << 20, &quiet);
  EXPECT_TRUE(ordinary.status.exited);
  EXPECT_FALSE(ordinary.cancelled);
  EXPECT_EQ(ordinary.output, "fine\n");
}

TEST(CapturedOutput, KeepsTheHeadAndCountsTheRest) {
  CapturedOutput capture(5);
  capture.append("abc", 3);
  capture.append("defgh", 5);
  capture.append("", 0);
  capture.append("ij", 2);
  EXPECT_EQ(capture.head, "abcde");
  EXPECT_EQ(capture.total, 10u);
}

TEST_F(ProcessTest, EnvironmentIsExactlyTheGivenVariables) {
  setenv("JUDGE_TEST_LEAK", "should not reach the child", 1);
  SpawnSpec spec;
  spec.argv = {"/usr/bin/env"};
  spec.env = {"FOO=bar", "EMPTY="};
  CommandResult result = run_command(spec, 5000);
  unsetenv("JUDGE_TEST_LEAK");
  EXPECT_EQ(result.output, "FOO=bar\nEMPTY=\n");
}

// The descriptors open in a running child, read from /proc by the parent.
std::set<std::string> open_descriptors(pid_t pid) {
  std::set<std::string> fds;
  for (const auto& entry : fs::directory_iterator(fs::path("/proc") / std::to_string(pid) / "fd"))
    fds.insert(entry.path().filename().string());
  return fds;
}

// The descriptors of `pid` once they equal `expected`, or after 2 s: the
// dynamic loader opens libraries for a moment while the child starts, and
// only a descriptor that stays open is a leak.
std::set<std::string> settled_descriptors(pid_t pid, const std::set<std::string>& expected) {
  auto deadline = Clock::now() + std::chrono::seconds(2);
  std::set<std::string> fds = open_descriptors(pid);
  while (fds != expected && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    fds = open_descriptors(pid);
  }
  return fds;
}

std::string descriptor_target(pid_t pid, int fd) {
  return fs::read_symlink(fs::path("/proc") / std::to_string(pid) / "fd" / std::to_string(fd)).string();
}

TEST_F(ProcessTest, OnlyStandardDescriptorsReachTheChild) {
  // Descriptors the judge has open without close-on-exec must not leak.
  int leaked = open("/dev/null", O_RDONLY);
  ASSERT_GE(leaked, 0);
  ASSERT_EQ(dup2(leaked, 200), 200);
  SpawnSpec spec;
  spec.argv = {"/bin/sleep", "10"};
  std::string error;
  std::unique_ptr<Child> child = Child::spawn(spec, &error);
  close(leaked);
  close(200);
  ASSERT_TRUE(child) << error;
  const std::set<std::string> expected{"0", "1", "2"};
  EXPECT_EQ(settled_descriptors(child->pid(), expected), expected);
  EXPECT_EQ(descriptor_target(child->pid(), 0), "/dev/null") << "stdin is /dev/null";
  EXPECT_EQ(descriptor_target(child->pid(), 1).rfind("pipe:", 0), 0u);
  EXPECT_EQ(descriptor_target(child->pid(), 2).rfind("pipe:", 0), 0u);
}

TEST_F(ProcessTest, DescriptorsAboveTheOldLoopBoundAreClosedToo) {
  // A judge with many files open (a large `grade`) holds descriptors past
  // 1024; close_range reaches them all.
  rlimit limit{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &limit), 0);
  if (limit.rlim_max < 5000) JUDGE_SKIP() << "the descriptor limit here is " << limit.rlim_max;
  rlimit raised = limit;
  raised.rlim_cur = std::max<rlim_t>(limit.rlim_cur, 5000);
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &raised), 0);
  int leaked = open("/dev/null", O_RDONLY);
  ASSERT_GE(leaked, 0);
  ASSERT_EQ(dup2(leaked, 4321), 4321);
  SpawnSpec spec;
  spec.argv = {"/bin/sleep", "10"};
  std::string error;
  std::unique_ptr<Child> child = Child::spawn(spec, &error);
  close(leaked);
  close(4321);
  setrlimit(RLIMIT_NOFILE, &limit);
  ASSERT_TRUE(child) << error;
  const std::set<std::string> expected{"0", "1", "2"};
  EXPECT_EQ(settled_descriptors(child->pid(), expected), expected);
}

TEST_F(ProcessTest, StoppingAGroupWaitsOnlyUntilTheChildHasEnded) {
  // `sleep` ends at SIGTERM: no reason to wait out a 20 s grace period.
  SpawnSpec spec;
  spec.argv = {"/bin/sleep", "60"};
  std::string error;
  std::unique_ptr<Child> child = Child::spawn(spec, &error);
  ASSERT_TRUE(child) << error;
  auto start = std::chrono::steady_clock::now();
  child->stop_group(20000);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  ExitStatus status = child->wait();
  EXPECT_EQ(status.signal, SIGTERM);
}

TEST_F(ProcessTest, StoppingAGroupKillsAChildThatIgnoresSigterm) {
  std::string error;
  std::unique_ptr<Child> child = Child::spawn(shell("trap '' TERM; echo ready; while :; do sleep 1; done"), &error);
  ASSERT_TRUE(child) << error;
  ASSERT_TRUE(wait_for_output(*child, "ready"));
  auto start = std::chrono::steady_clock::now();
  child->stop_group(300);
  EXPECT_EQ(child->wait().signal, SIGKILL);
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(300));
}

TEST_F(ProcessTest, TheChannelBecomesDescriptorThreeAndNothingElseLeaks) {
  int sockets[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets), 0);
  int leaked = open("/dev/null", O_RDONLY);
  ASSERT_GE(leaked, 0);
  SpawnSpec spec;
  spec.argv = {"/bin/sleep", "10"};
  spec.channel_fd = sockets[1];
  std::string error;
  std::unique_ptr<Child> child = Child::spawn(spec, &error);
  close(leaked);
  ASSERT_TRUE(child) << error;
  const std::set<std::string> expected{"0", "1", "2", "3"};
  EXPECT_EQ(settled_descriptors(child->pid(), expected), expected);
  EXPECT_EQ(descriptor_target(child->pid(), 3).rfind("socket:", 0), 0u);
  close(sockets[0]);
  close(sockets[1]);
}

TEST_F(ProcessTest, LimitsAndWorkingDirectoryApplyToTheChild) {
  SpawnSpec spec = shell("ulimit -v; ulimit -t; pwd");
  spec.address_space_bytes = 256ull << 20;
  spec.cpu_seconds = 7;
  spec.working_dir = "/tmp";
  CommandResult result = run_command(spec, 5000);
  EXPECT_EQ(result.output, "262144\n7\n/tmp\n");
}

TEST_F(ProcessTest, ASpawnThatCannotExecNamesTheFailedCall) {
  SpawnSpec spec;
  spec.argv = {"/nonexistent/program"};
  std::string error;
  EXPECT_EQ(Child::spawn(spec, &error), nullptr);
  EXPECT_EQ(error, "execvp /nonexistent/program: No such file or directory (in the child, before exec)");

  spec.argv = {"/bin/true"};
  spec.working_dir = "/nonexistent/dir";
  EXPECT_EQ(Child::spawn(spec, &error), nullptr);
  EXPECT_EQ(error, "chdir /nonexistent/dir: No such file or directory (in the child, before exec)");

  spec = SpawnSpec();
  spec.argv = {"/nonexistent/program"};
  CommandResult result = run_command(spec, 1000);
  EXPECT_FALSE(result.started);
  EXPECT_EQ(result.error, "execvp /nonexistent/program: No such file or directory (in the child, before exec)");
}

// RunnerSession against fake runners (fake_runner.cpp, copied under the name
// of what it does) that never speak the protocol properly. Each must come
// back as a failed call, never a value.
class FakeRunnerTest : public ProcessTest {
 protected:
  void SetUp() override {
    ProcessTest::SetUp();
    char pattern[] = "/tmp/judge-fake-runner-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
    // The sandbox may run the runner as another user: it must be able to reach it.
    fs::permissions(dir_, kReadableByAll);
  }
  void TearDown() override {
    fs::remove_all(dir_);
    ProcessTest::TearDown();
  }

  // The fake runner under the name that picks its behaviour, in `where`
  // (default: the test's directory).
  fs::path install_fake(const std::string& behaviour, const fs::path& where = {}) {
    fs::path runner = (where.empty() ? dir_ : where) / behaviour;
    fs::copy_file(FAKE_RUNNER, runner, fs::copy_options::overwrite_existing);
    fs::permissions(runner, kReadableByAll);
    return runner;
  }

  static CallResult call_once(const fs::path& runner, int time_limit_ms) {
    RunnerSession session(runner.string(), RunnerLimits{});
    return session.call("op", nlohmann::json::object(), time_limit_ms);
  }

  CallResult call_fake(const std::string& behaviour, int time_limit_ms = 300) {
    return call_once(install_fake(behaviour), time_limit_ms);
  }

  static constexpr fs::perms kReadableByAll = fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                              fs::perms::others_read | fs::perms::others_exec;
  fs::path dir_;
};

const std::string kIdleFor300 =
    "no reply after 600 ms asleep or blocked, 2 times the time limit of this case: it slept or waited";

TEST_F(FakeRunnerTest, SilenceIsATimeoutByTheClock) {
  auto start = Clock::now();
  CallResult call = call_fake("silent");
  EXPECT_EQ(call.outcome, CallResult::Outcome::kTimeout);
  EXPECT_EQ(call.detail, kIdleFor300);
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - start).count(), 3.0);
}

TEST_F(FakeRunnerTest, ComputingIsATimeoutByItsCpuTime) {
  CallResult call = call_fake("spins");
  EXPECT_EQ(call.outcome, CallResult::Outcome::kTimeout);
  EXPECT_EQ(call.detail, "no reply after 300 ms of CPU time, the time limit of this case");
  EXPECT_GE(call.cpu_ms, 300);
}

TEST_F(FakeRunnerTest, ARunnerTheMachineStarvesIsNoTimeoutButStarvedEvenWhenTriedAlone) {
  // A busy thread on CPU 0, and a runner that runs there only when nothing
  // else wants it (SCHED_IDLE): it waits for a CPU, runnable, until the clock's backstop,
  // then again alone, and the call says the machine starved it.
  std::atomic<bool> stop{false};
  std::thread busy([&] {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(0, &one);
    sched_setaffinity(0, sizeof one, &one);
    while (!stop) {
    }
  });
  // No cgroup of its own (no memory limit), so that the kernel weighs it
  // against the busy thread directly rather than as a group of its own.
  RunnerLimits limits;
  limits.memory_bytes = 0;
  RunnerSession session(install_fake("starves").string(), limits);
  CallResult call = session.call("op", nlohmann::json::object(), 200);
  stop = true;
  busy.join();
  EXPECT_EQ(call.outcome, CallResult::Outcome::kStarved) << call.detail;
  EXPECT_NE(call.detail.find("waiting for a CPU the rest of it"), std::string::npos) << call.detail;
  EXPECT_LT(call.cpu_ms, 200) << "starved, it never used its CPU time";
}

TEST_F(FakeRunnerTest, SilenceBeforeReadyIsATimeoutAfterTheStartupGrace) {
  // Asleep before it ever said it was ready: perhaps still loading on a busy
  // machine, so waited for beyond the limit, but not for ever.
  RunnerLimits limits;
  limits.startup_grace_ms = 700;
  RunnerSession session(install_fake("silent_before_ready").string(), limits);
  CallResult call = session.call("op", nlohmann::json::object(), 300);
  EXPECT_EQ(call.outcome, CallResult::Outcome::kTimeout);
  EXPECT_EQ(call.detail, kIdleFor300);
  EXPECT_GE(call.wall_ms, 1300) << "the startup grace was not waited out";
  EXPECT_TRUE(session.ended_before_ready());
}

TEST_F(FakeRunnerTest, IgnoringSigtermStillEndsInATimeout) {
  auto start = Clock::now();
  CallResult call = call_fake("ignores_sigterm");
  EXPECT_EQ(call.outcome, CallResult::Outcome::kTimeout);
  EXPECT_EQ(call.detail, kIdleFor300);
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - start).count(), 3.0);
}

TEST_F(FakeRunnerTest, ExitingBeforeReplyingIsDeath) {
  CallResult call = call_fake("exits_3");
  EXPECT_EQ(call.outcome, CallResult::Outcome::kDied);
  EXPECT_EQ(call.detail, "the runner exited with status 3 before replying");
}

TEST_F(FakeRunnerTest, ASignalBeforeReplyingIsNamed) {
  CallResult call = call_fake("segfault");
  EXPECT_EQ(call.outcome, CallResult::Outcome::kDied);
  EXPECT_EQ(call.detail, "the runner was killed by SIGSEGV (Segmentation fault) before replying");
}

TEST_F(FakeRunnerTest, AFrameWithoutTheNonceIsMalformed) {
  CallResult call = call_fake("no_nonce");
  EXPECT_EQ(call.outcome, CallResult::Outcome::kMalformed);
  EXPECT_EQ(call.detail, "malformed reply: something other than the harness wrote to the judge's channel");
}

TEST_F(FakeRunnerTest, AFrameLargerThanTheRequestAllowsIsRefusedByItsAnnouncedSize) {
  // "xxxx" announces 0x78787878 bytes (about 2 GiB); nothing follows them.
  CallResult call = call_fake("oversized");
  EXPECT_EQ(call.outcome, CallResult::Outcome::kTooLarge);
  EXPECT_EQ(
      call.detail.rfind("the reply to 'op' was 2021161080 bytes, more than any reply to this request can be (", 0), 0u)
      << call.detail;
}

TEST_F(FakeRunnerTest, ATypedArrayOfDoublesStaysOneAndReadsAsTheList) {
  CallResult call = call_fake("typed_array_reply");
  ASSERT_EQ(call.outcome, CallResult::Outcome::kValue) << call.detail;
  EXPECT_TRUE(is_typed_doubles(call.value)) << "kept as the channel carried it, not a JSON number per entry";
  EXPECT_EQ(doubles_of(call.value), (std::vector<double>{1.5, -2.0}));
  EXPECT_EQ(expanded(call.value), nlohmann::json::parse("[1.5, -2.0]"));
}

TEST_F(FakeRunnerTest, AnInt64TypedArrayReplyIsAListOfIntegers) {
  CallResult call = call_fake("int64_array_reply");
  ASSERT_EQ(call.outcome, CallResult::Outcome::kValue) << call.detail;
  EXPECT_EQ(call.value, nlohmann::json::parse("[3, -2]"));
}

TEST_F(FakeRunnerTest, ATaggedValueOtherThanTheProtocolsTypedArraysIsMalformed) {
  const std::pair<const char*, const char*> cases[] = {
      {"float32_array_reply", "a tag other than a typed array's"},
      {"ragged_array_reply", "a typed array whose size is not a multiple of 8 bytes"}};
  for (const auto& [behaviour, why] : cases) {
    CallResult call = call_fake(behaviour);
    EXPECT_EQ(call.outcome, CallResult::Outcome::kMalformed) << behaviour;
    EXPECT_EQ(call.detail, std::string("malformed reply: the runner's reply could not be decoded: ") + why)
        << behaviour;
  }
}

TEST_F(FakeRunnerTest, AReplyNestedAMillionDeepIsMalformedNotTheJudgesCrash) {
  CallResult call = call_fake("deeply_nested_reply");
  EXPECT_EQ(call.outcome, CallResult::Outcome::kMalformed);
  EXPECT_EQ(call.detail, "malformed reply: the runner's reply could not be decoded: nested too deeply");
}

// Replies the harness never writes, whatever their bytes: each is a
// malformed call (the learner's runtime_error), never the judge's fault.
TEST_F(FakeRunnerTest, AReplyTheHarnessNeverWritesIsMalformed) {
  const std::pair<const char*, const char*> cases[] = {
      {"invalid_utf8_reply",
       "malformed reply: the runner's reply could not be decoded: a text string that is not "
       "valid UTF-8"},
      {"reply_not_a_map", "malformed reply: a list of 1, not a map"},
      {"exception_what_not_text", "malformed reply: an exception whose type or what() is not a string"}};
  for (const auto& [behaviour, detail] : cases) {
    CallResult call = call_fake(behaviour);
    EXPECT_EQ(call.outcome, CallResult::Outcome::kMalformed) << behaviour;
    EXPECT_EQ(call.detail, detail) << behaviour;
  }
}

TEST_F(FakeRunnerTest, ClosingTheChannelIsDeath) {
  CallResult call = call_fake("closes_channel", 3000);
  EXPECT_EQ(call.outcome, CallResult::Outcome::kDied);
  EXPECT_EQ(call.detail, "the runner closed the judge's channel before replying");
}

TEST_F(FakeRunnerTest, WhatTheRunnerPrintedIsKept) {
  CallResult call = call_fake("prints");
  EXPECT_EQ(call.outcome, CallResult::Outcome::kDied);
  EXPECT_EQ(call.output, "hello\nworld\n");
}

// This process's scratch directories ("judge-run-PID-XXXXXX").
std::set<std::string> own_scratch_directories() {
  std::set<std::string> dirs;
  std::string prefix = "judge-run-" + std::to_string(getpid()) + "-";
  for (const auto& entry : fs::directory_iterator("/tmp"))
    if (entry.path().filename().string().rfind(prefix, 0) == 0) dirs.insert(entry.path().string());
  return dirs;
}

TEST_F(FakeRunnerTest, ARunnerThatCannotStartLeavesNoScratchDirectory) {
  for (int i = 0; i < 3; ++i) {
    RunnerSession session((dir_ / "missing").string(), RunnerLimits{});
    EXPECT_EQ(session.call("op", nlohmann::json::object(), 300).outcome, CallResult::Outcome::kNotStarted);
  }
  EXPECT_TRUE(own_scratch_directories().empty())
      << "a failed start leaves its scratch directory behind: " << ::testing::PrintToString(own_scratch_directories());
}

TEST_F(FakeRunnerTest, ARunnerInAPrivateDirectoryStarts) {
  // A checkout under /root is mode 0700: as root the judge reaches it, the
  // runner's user does not. The runner must start all the same.
  fs::path private_dir = dir_ / "private";
  fs::create_directories(private_dir);
  fs::permissions(private_dir, fs::perms::owner_all);
  CallResult call = call_once(install_fake("prints", private_dir), 2000);
  EXPECT_EQ(call.outcome, CallResult::Outcome::kDied) << call.detail;
  EXPECT_EQ(call.output, "hello\nworld\n");
}

TEST_F(FakeRunnerTest, OneRunnersForkBombDoesNotStopAnotherRunner) {
  // The process cap is per user: each runner needs a user of its own.
  if (!sandbox_support().drop_to_nobody || !sandbox_support().namespaces)
    JUDGE_SKIP() << "the process cap applies only when the judge is root, with PID namespaces";
  fs::path bomb = install_fake("forks_to_the_cap");
  // Two bombs, one after the other: a user at its cap may still start one
  // more process (the kernel refuses only above it), so only the second
  // bomb takes a shared user over the cap.
  auto run_bomb = [&] {
    RunnerSession session(bomb.string(), RunnerLimits{});
    CallResult call = session.call("op", nlohmann::json::object(), 4000);
    // Forking until the cap, or stopped at the first fork by the system-call filter.
    bool filtered = call.outcome == CallResult::Outcome::kDied && call.signal == SIGSYS;
    EXPECT_TRUE(call.outcome == CallResult::Outcome::kTimeout || filtered) << call.detail;
  };
  std::thread first_bomb(run_bomb);
  std::this_thread::sleep_for(std::chrono::milliseconds(700));  // at its cap by now
  std::thread second_bomb(run_bomb);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  CallResult call = call_once(install_fake("prints"), 2000);
  EXPECT_EQ(call.outcome, CallResult::Outcome::kDied) << call.detail;
  EXPECT_EQ(call.output, "hello\nworld\n");
  first_bomb.join();
  second_bomb.join();
}

TEST_F(FakeRunnerTest, ACallsCpuTimeIsTheWholeRunnersByTheKernel) {
  // The work runs on a second thread while the one that answers waits.
  RunnerSession session(install_fake("spins_on_a_thread").string(), RunnerLimits{});
  Request request("op", nlohmann::json::object());
  CallResult call = session.call(request.set_timed(), 3000);
  ASSERT_EQ(call.outcome, CallResult::Outcome::kValue) << call.detail;
  EXPECT_GE(call.cpu_ms, 150) << "the helper thread's CPU time was not counted";
  EXPECT_LT(call.cpu_ms, 1000);
  EXPECT_GE(call.wall_ms, 190);
}

TEST_F(FakeRunnerTest, ACallOverItsCpuBudgetIsStoppedBeforeItsTimeLimit) {
  // 200 ms of CPU on a helper thread against a budget of 50 ms: stopped
  // before its reply (and long before the 5 s limit), as a timeout that
  // names the budget. No bound on the clock: a loaded machine stretches it.
  RunnerSession session(install_fake("spins_on_a_thread").string(), RunnerLimits{});
  Request request("op", nlohmann::json::object());
  request.set_timed().set_cpu_budget_ms(50);
  CallResult call = session.call(request, 5000);
  ASSERT_EQ(call.outcome, CallResult::Outcome::kTimeout) << call.detail;
  EXPECT_EQ(call.cpu_ms, 50);
  EXPECT_NE(call.detail.find("no reply after 50 ms of CPU time"), std::string::npos) << call.detail;
  // A budget it stays within changes nothing.
  request.set_cpu_budget_ms(2000);
  CallResult within = session.call(request, 5000);
  EXPECT_EQ(within.outcome, CallResult::Outcome::kValue) << within.detail;
}

TEST_F(FakeRunnerTest, AnInterruptedSessionEndsItsCallAndStartsNoOther) {
  RunnerSession session(install_fake("silent").string(), RunnerLimits{});
  std::thread interrupter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    session.interrupt();
  });
  CallResult call = session.call("op", nlohmann::json::object(), 60000);
  interrupter.join();
  EXPECT_EQ(call.outcome, CallResult::Outcome::kDied) << call.detail;
  EXPECT_LT(call.wall_ms, 30000) << "the call waited for its limit instead";
  CallResult after = session.call("op", nlohmann::json::object(), 300);
  EXPECT_EQ(after.outcome, CallResult::Outcome::kNotStarted) << after.detail;
  EXPECT_NE(after.detail.find("interrupted"), std::string::npos) << after.detail;
}

TEST_F(FakeRunnerTest, ACpuBudgetNeverStopsARunnerThatOnlyWaits) {
  // Asleep, it uses no CPU (past starting, a few milliseconds): only the
  // time limit ends the call.
  RunnerSession session(install_fake("silent").string(), RunnerLimits{});
  Request request("op", nlohmann::json::object());
  request.set_timed().set_cpu_budget_ms(100);
  CallResult call = session.call(request, 300);
  ASSERT_EQ(call.outcome, CallResult::Outcome::kTimeout) << call.detail;
  EXPECT_EQ(call.detail, kIdleFor300);
  EXPECT_GE(call.wall_ms, 590);
}

// The command name (truncated to 15 bytes by the kernel) and parent of each
// process whose parent is one of `parents`.
std::vector<std::pair<pid_t, std::string>> children_of(const std::set<pid_t>& parents) {
  std::vector<std::pair<pid_t, std::string>> found;
  std::error_code error;
  for (auto it = fs::directory_iterator("/proc", error); !error && it != fs::directory_iterator();
       it.increment(error)) {
    const fs::directory_entry& entry = *it;
    std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat_file(entry.path() / "stat");
    std::string stat((std::istreambuf_iterator<char>(stat_file)), std::istreambuf_iterator<char>());
    std::size_t open = stat.find('('), close = stat.rfind(')');
    if (open == std::string::npos || close == std::string::npos) continue;
    std::istringstream rest(stat.substr(close + 2));
    char state = 0;
    pid_t parent = 0;
    rest >> state >> parent;
    if (parents.count(parent)) found.emplace_back(std::stoi(name), stat.substr(open + 1, close - open - 1));
  }
  return found;
}

TEST_F(FakeRunnerTest, TheProcessesThatWaitForASandboxedRunnerAreNoCopiesOfTheJudge) {
  // Forks of the judge that lived as long as the runner would share every
  // page of the judge copy-on-write, and each page the judge wrote would be
  // copied: they become judge-sandbox-init instead.
  if (!sandbox_support().namespaces) JUDGE_SKIP() << "no namespaces here: the runner is the judge's own child";
  std::set<pid_t> earlier;  // children other tests of this process left
  for (const auto& [pid, name] : children_of({getpid()})) earlier.insert(pid);
  RunnerSession session(install_fake("silent").string(), RunnerLimits{});
  std::thread caller([&] { session.call("op", nlohmann::json::object(), 1500); });
  std::vector<std::pair<pid_t, std::string>> outer, inner;
  for (auto until = Clock::now() + std::chrono::seconds(1); Clock::now() < until && inner.empty();) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    outer.clear();
    for (const auto& child : children_of({getpid()}))
      if (!earlier.count(child.first)) outer.push_back(child);
    std::set<pid_t> outer_pids;
    for (const auto& [pid, name] : outer) outer_pids.insert(pid);
    inner = children_of(outer_pids);
  }
  caller.join();
  ASSERT_EQ(outer.size(), 1u) << "the runner's outer process was not seen";
  ASSERT_EQ(inner.size(), 1u) << "the PID namespace's first process was not seen";
  EXPECT_EQ(outer[0].second, "judge-sandbox-i");
  EXPECT_EQ(inner[0].second, "judge-sandbox-i");
}

TEST_F(FakeRunnerTest, SharedDevicesKeepTheirOwner) {
  // A runner's own directories are handed to its user; /dev/null, which it
  // may write too, is everyone's and must stay as it is.
  struct stat before {
  }, after{};
  ASSERT_EQ(stat("/dev/null", &before), 0);
  CallResult call = call_fake("prints");
  EXPECT_EQ(call.output, "hello\nworld\n");
  ASSERT_EQ(stat("/dev/null", &after), 0);
  EXPECT_EQ(after.st_uid, before.st_uid);
  EXPECT_EQ(after.st_gid, before.st_gid);
  EXPECT_EQ(after.st_mode, before.st_mode);
}

TEST_F(FakeRunnerTest, ARunnerThatRanLeavesNoScratchDirectory) {
  {
    CallResult call = call_fake("prints");
    EXPECT_EQ(call.outcome, CallResult::Outcome::kDied);
  }
  EXPECT_TRUE(own_scratch_directories().empty()) << ::testing::PrintToString(own_scratch_directories());
}

TEST_F(FakeRunnerTest, AMissingRunnerIsTheJudgesFailureNotALearnerVerdict) {
  std::string missing = (dir_ / "missing").string();
  RunnerSession session(missing, RunnerLimits{});
  CallResult call = session.call("op", nlohmann::json::object(), 300);
  EXPECT_EQ(call.outcome, CallResult::Outcome::kNotStarted);
  EXPECT_EQ(call.detail.rfind("could not start the runner: ", 0), 0u) << call.detail;
  EXPECT_NE(call.detail.find(missing), std::string::npos) << call.detail;
}

}  // namespace

// A command the clock stops having used little CPU was starved by the
// machine, not slow: run_limited runs it once more, alone, and reports it
// starved only if that run starves too. The script sleeps (no CPU) past
// the backstop of 5 s on the runs `sleeps_on` names, counted in a file.
class StarvedCommand : public ::testing::Test {
 protected:
  LimitedResult run(const std::string& sleeps_on) {
    CompileLimits limits;
    limits.seconds = 1;
    limits.max_processes = 4096;
    const std::string script = "echo run >> '" + runs_.string() + "'; n=$(wc -l < '" + runs_.string() + "'); case \" " +
                               sleeps_on + " \" in *\" $n \"*) exec sleep 60;; esac; exit 0";
    return run_limited(shell(script), limits, 4096);
  }
  int runs() {
    std::ifstream in(runs_);
    return static_cast<int>(std::count(std::istreambuf_iterator<char>(in), {}, '\n'));
  }
  void TearDown() override { fs::remove(runs_); }
  fs::path runs_ = fs::temp_directory_path() / ("judge-starved-" + std::to_string(getpid()));
};

TEST_F(StarvedCommand, StarvedOnceIsRunAgainAloneAndNotReported) {
  LimitedResult result = run("1");
  EXPECT_EQ(runs(), 2) << "a starved command runs once more";
  EXPECT_FALSE(result.starved);
  EXPECT_FALSE(result.command.timed_out);
  EXPECT_EQ(result.command.status.code, 0);
}

TEST_F(StarvedCommand, StarvedTwiceIsReportedStarvedNotOverItsTime) {
  LimitedResult result = run("1 2");
  EXPECT_EQ(runs(), 2) << "a command is run alone once, not again and again";
  EXPECT_TRUE(result.starved);
  EXPECT_FALSE(result.over_cpu) << "it used almost no CPU time: not the command's fault";
  EXPECT_LT(result.cpu_seconds, 1.0);
}

TEST_F(StarvedCommand, ACommandThatFinishesIsRunOnce) {
  LimitedResult result = run("");
  EXPECT_EQ(runs(), 1);
  EXPECT_FALSE(result.starved);
}

}  // namespace judge
