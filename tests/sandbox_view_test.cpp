// What a sandboxed child sees and runs as: the allow-lists of system
// directories (no whole tree that may hold an installed judge), the
// judge's own paths hidden even beneath an allowed directory, the ids
// leased to runners, and the cap on a child's processes and threads.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "sandbox/hidden_paths.hpp"
#include "sandbox/identity.hpp"
#include "sandbox/process.hpp"
#include "sandbox/sandbox.hpp"
#include "sandbox/scratch.hpp"
#include "sandbox/system_mounts.hpp"
#include "sandbox/view.hpp"
#include "skip_here.hpp"

namespace judge {
namespace {
namespace fs = std::filesystem;

std::vector<std::string> hosts_of(const std::vector<SandboxMount>& mounts) {
  std::vector<std::string> hosts;
  for (const SandboxMount& mount : mounts) hosts.push_back(mount.host);
  return hosts;
}

TEST(SystemMounts, AreAnAllowListWithoutAnyTreeThatMayHoldAnInstalledJudge) {
  for (SystemNeeds needs : {SystemNeeds::kLibraries, SystemNeeds::kToolchain}) {
    std::vector<std::string> hosts = hosts_of(system_mounts(needs));
    for (const char* whole : {"/", "/usr", "/usr/share", "/usr/local", "/usr/lib", "/opt", "/etc", "/home", "/root"})
      EXPECT_EQ(std::count(hosts.begin(), hosts.end(), whole), 0) << whole << " is mounted whole";
    for (const std::string& host : hosts) {
      EXPECT_FALSE(path_is_within(host, "/usr/share")) << host;
      EXPECT_FALSE(path_is_within(host, "/usr/local")) << host;
    }
    // What every dynamically linked program needs.
    EXPECT_NE(std::count(hosts.begin(), hosts.end(), "/etc/ld.so.cache"), 0);
    for (const std::string& directory : shared_library_directories())
      EXPECT_TRUE(std::any_of(hosts.begin(), hosts.end(),
                              [&](const std::string& host) { return path_is_within(directory, host); }))
          << directory << " (a library directory) is not in the view";
  }
  std::vector<std::string> runner = hosts_of(system_mounts(SystemNeeds::kLibraries));
  for (const char* tool : {"/usr/bin", "/usr/include", "/usr/lib/gcc"})
    EXPECT_EQ(std::count(runner.begin(), runner.end(), tool), 0) << "a runner needs no " << tool;
  std::vector<std::string> toolchain = hosts_of(system_mounts(SystemNeeds::kToolchain, {"/opt/gcc-13"}));
  for (const char* tool : {"/usr/bin", "/usr/include", "/usr/lib/gcc", "/opt/gcc-13"})
    EXPECT_EQ(std::count(toolchain.begin(), toolchain.end(), tool), 1) << tool;
}

TEST(PathIsWithin, ComparesWholeComponents) {
  EXPECT_TRUE(path_is_within("/usr/lib", "/usr/lib"));
  EXPECT_TRUE(path_is_within("/usr/lib/judge", "/usr/lib"));
  EXPECT_FALSE(path_is_within("/usr/lib2", "/usr/lib"));
  EXPECT_FALSE(path_is_within("/usr", "/usr/lib"));
  EXPECT_TRUE(path_is_within("/anything", "/"));
}

// A directory the view allows, holding a file that is the judge's own.
class HiddenPathTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/judge-view-test-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
    fs::create_directories(allowed() / "judge" / "solutions");
    std::ofstream(allowed() / "visible.txt") << "visible\n";
    std::ofstream(secret_file()) << "judge-secret\n";
    // A runner of a root judge has a user of its own: it must be able to reach the directory.
    for (const fs::path& path : {dir_, allowed(), allowed() / "judge", allowed() / "judge" / "solutions"})
      fs::permissions(path, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                fs::perms::others_read | fs::perms::others_exec);
    hide_from_sandboxes((allowed() / "judge").string());
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path allowed() const { return dir_ / "allowed"; }
  fs::path secret_file() const { return allowed() / "judge" / "solutions" / "reference.hpp"; }

  fs::path dir_;
};

TEST_F(HiddenPathTest, IsRegisteredWithItsLinksResolvedAndOnlyOutsideAnother) {
  fs::create_directories(dir_ / "elsewhere" / "cache");
  fs::create_directory_symlink(dir_ / "elsewhere", dir_ / "link");
  hide_from_sandboxes((dir_ / "link" / "cache").string());
  std::vector<std::string> hidden = hidden_paths();
  EXPECT_NE(std::count(hidden.begin(), hidden.end(), (dir_ / "elsewhere" / "cache").string()), 0)
      << ::testing::PrintToString(hidden);
  // Inside a hidden directory already (as problems/ is in an installed judge's root).
  hide_from_sandboxes((allowed() / "judge" / "solutions").string());
  hidden = hidden_paths();
  EXPECT_EQ(std::count(hidden.begin(), hidden.end(), (allowed() / "judge" / "solutions").string()), 0)
      << "covering judge/ covers it: a second cover inside the first cannot be mounted";
}

TEST_F(HiddenPathTest, LandlockAloneAllowsTheDirectoryEntryByEntryAroundIt) {
  SandboxView view;
  view.mounts = {{allowed().string(), allowed().string()}};
  view.working_dir = "/";
  PreparedView prepared(view, /*private_root=*/false);
  std::vector<std::string> readable;
  for (const char* const* path = prepared.readable(); *path; ++path) readable.push_back(*path);
  EXPECT_NE(std::count(readable.begin(), readable.end(), (allowed() / "visible.txt").string()), 0)
      << ::testing::PrintToString(readable);
  for (const std::string& path : readable)
    EXPECT_FALSE(path_is_within((allowed() / "judge").string(), path)) << path << " would let it reach the hidden path";
}

TEST_F(HiddenPathTest, NoSandboxedChildCanReadItThroughAnAllowedMount) {
  if (!sandbox_support().file_sandbox()) JUDGE_SKIP() << "no file sandbox here (see judge doctor)";
  std::string error;
  std::unique_ptr<SandboxScratch> scratch = SandboxScratch::create(dir_.string(), "", &error);
  ASSERT_TRUE(scratch) << error;
  SpawnSpec spec;
  spec.argv = {"/bin/sh", "-c",
               fmt::format("cat {}/visible.txt; cat {} 2>&1; ls -a {}/judge 2>&1; echo done", allowed().string(),
                           secret_file().string(), allowed().string())};
  spec.env = {"PATH=/usr/bin:/bin"};
  spec.sandbox = true;
  spec.syscall_filter = FilterFor::kCompiler;  // a shell forks
  spec.sandbox_view.mounts = system_mounts(SystemNeeds::kToolchain, {allowed().string()});
  spec.sandbox_view.mounts.push_back({scratch->work(), "/work", /*writable=*/true, false, /*owned_by_child=*/true});
  spec.sandbox_view.working_dir = "/work";
  spec.sandbox_view.root_point = scratch->root();
  CommandResult result = run_command(spec, 10000);
  ASSERT_TRUE(result.started) << result.error;
  EXPECT_NE(result.output.find("visible"), std::string::npos) << "the allowed directory is readable:\n"
                                                              << result.output;
  EXPECT_NE(result.output.find("done"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("judge-secret"), std::string::npos) << "the hidden file was read:\n" << result.output;
  EXPECT_EQ(("\n" + result.output).find("\nsolutions\n"), std::string::npos) << "the hidden directory was listed:\n"
                                                                             << result.output;
}

// The uid of a sandboxed shell that prints it, run with the runner filter's
// sibling (a shell forks).
uid_t uid_of_a_sandboxed_child(const fs::path& scratch_parent, std::unique_ptr<Child>* keep = nullptr) {
  std::string error;
  std::unique_ptr<SandboxScratch> scratch = SandboxScratch::create(scratch_parent.string(), "", &error);
  if (!scratch) return 0;
  SpawnSpec spec;
  spec.argv = {"/bin/sh", "-c", keep ? "id -u; exec sleep 30" : "id -u"};
  spec.env = {"PATH=/usr/bin:/bin"};
  spec.sandbox = true;
  spec.syscall_filter = FilterFor::kCompiler;
  spec.sandbox_view.mounts = system_mounts(SystemNeeds::kToolchain);
  spec.sandbox_view.mounts.push_back({scratch->work(), "/work", true, false, true});
  spec.sandbox_view.working_dir = "/work";
  spec.sandbox_view.root_point = scratch->root();
  std::unique_ptr<Child> child = Child::spawn(spec, &error);
  if (!child) return 0;
  CapturedOutput out;
  for (int i = 0; i < 500 && out.head.find('\n') == std::string::npos; ++i) {
    pollfd fds[1] = {{child->stdout_fd(), POLLIN, 0}};
    poll(fds, 1, 10);
    child->drain(&out, nullptr);
  }
  if (keep) *keep = std::move(child);
  return static_cast<uid_t>(std::stoul("0" + out.head.substr(0, out.head.find('\n'))));
}

TEST(RunnerIds, ALiveSandboxKeepsItsUidWhileManyOthersStartAndEnd) {
  if (!sandbox_support().runner_has_own_user()) JUDGE_SKIP() << "children keep the judge's user here";
  char pattern[] = "/tmp/judge-ids-test-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  fs::path dir = pattern;
  fs::permissions(dir, fs::perms::all & ~fs::perms::group_write & ~fs::perms::others_write);
  std::unique_ptr<Child> live;
  uid_t live_uid = uid_of_a_sandboxed_child(dir, &live);
  ASSERT_NE(live_uid, 0u);
  for (int i = 0; i < 80; ++i) {
    uid_t uid = uid_of_a_sandboxed_child(dir);
    ASSERT_NE(uid, 0u) << "child " << i << " did not report its uid";
    EXPECT_NE(uid, live_uid) << "child " << i << " runs as the live child's user";
  }
  live.reset();
  fs::remove_all(dir);
}

}  // namespace
}  // namespace judge
