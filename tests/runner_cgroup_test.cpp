// Runner cgroups: finding the judge's own cgroups from made-up /proc files,
// and, where this machine allows, real cgroups that kill at the memory
// limit, cap processes, count CPU time and leave nothing behind.
#include "sandbox/runner_cgroup.hpp"
#include "skip_here.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>

namespace judge {
namespace {
namespace fs = std::filesystem;

// A hybrid machine: v1 controllers and an empty unified hierarchy.
const char* kHybridMountinfo =
    "30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
    "31 30 0:28 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
    "34 30 0:31 / /sys/fs/cgroup/memory rw,relatime shared:9 - cgroup cgroup rw,memory\n"
    "40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";
const char* kHybridCgroup =
    "4:memory:/process_api/97275dcc\n"
    "1:cpu:/\n"
    "0::/\n";

TEST(FindCgroups, HybridMachineHasBothHierarchies) {
  CgroupCandidates found = find_cgroups(kHybridMountinfo, kHybridCgroup);
  ASSERT_TRUE(found.v1);
  EXPECT_EQ(found.v1->version, CgroupVersion::kV1);
  EXPECT_EQ(found.v1->directory, "/sys/fs/cgroup/memory/process_api/97275dcc");
  ASSERT_TRUE(found.v2);
  EXPECT_EQ(found.v2->version, CgroupVersion::kV2);
  EXPECT_EQ(found.v2->directory, "/sys/fs/cgroup/unified");
}

TEST(FindCgroups, UnifiedMachineUnderSystemd) {
  CgroupCandidates found = find_cgroups(
      "25 22 0:22 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate\n",
      "0::/user.slice/user-1000.slice/user@1000.service/app.slice/judge.scope\n");
  EXPECT_FALSE(found.v1);
  ASSERT_TRUE(found.v2);
  EXPECT_EQ(found.v2->directory, "/sys/fs/cgroup/user.slice/user-1000.slice/user@1000.service/app.slice/judge.scope");
}

TEST(FindCgroups, MountOfASubtreeAndEscapedSpaces) {
  // A container sees only its own subtree, mounted where it has a space.
  CgroupCandidates found =
      find_cgroups("40 30 0:37 /docker/abc /sys/fs/my\\040cgroups rw - cgroup2 cgroup2 rw\n", "0::/docker/abc/inner\n");
  ASSERT_TRUE(found.v2);
  EXPECT_EQ(found.v2->directory, "/sys/fs/my cgroups/inner");
  // A cgroup outside what is mounted cannot be reached.
  EXPECT_FALSE(find_cgroups("40 30 0:37 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n", "0::/elsewhere\n").v2);
}

TEST(FindCgroups, NothingWithoutAMemoryHierarchy) {
  CgroupCandidates found = find_cgroups("31 30 0:28 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n", "1:cpu:/\n");
  EXPECT_FALSE(found.v1);
  EXPECT_FALSE(found.v2);
  EXPECT_FALSE(find_cgroups("", "").v1);
}

TEST(CgroupKeyValue, ReadsTheNumberAfterTheKey) {
  EXPECT_EQ(cgroup_key_value("oom_kill_disable 0\nunder_oom 0\noom_kill 3\n", "oom_kill"), 3u);
  EXPECT_EQ(cgroup_key_value("low 0\nhigh 0\nmax 12\noom 2\noom_kill 1\n", "oom"), 2u);
  EXPECT_FALSE(cgroup_key_value("oom_kill_disable 0\n", "oom_kill"));
}

TEST(FindCgroups, TheV1PidsAndCpuacctHierarchiesAreFoundToo) {
  CgroupCandidates found = find_cgroups(
      "31 30 0:28 / /sys/fs/cgroup/cpuacct rw - cgroup cgroup rw,cpuacct\n"
      "32 30 0:29 / /sys/fs/cgroup/pids rw - cgroup cgroup rw,pids\n"
      "34 30 0:31 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
      "35 30 0:32 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n",
      "9:pids:/jobs/7\n4:memory:/jobs/7\n2:cpuacct:/\n");
  ASSERT_TRUE(found.v1_pids);
  EXPECT_EQ(found.v1_pids->directory, "/sys/fs/cgroup/pids/jobs/7");
  ASSERT_TRUE(found.v1_cpuacct);
  EXPECT_EQ(found.v1_cpuacct->directory, "/sys/fs/cgroup/cpuacct");
  ASSERT_TRUE(found.v1);
  EXPECT_EQ(found.v1->directory, "/sys/fs/cgroup/memory/jobs/7");
  EXPECT_FALSE(found.v2);
}

// Moves this (forked) process into every hierarchy of `cgroup`.
bool join(const RunnerCgroup& cgroup) {
  for (int fd : cgroup.procs_fds())
    if (write(fd, "0", 1) != 1) return false;
  return true;
}

// A real cgroup: needs a writable memory hierarchy (root, or a delegated
// cgroup v2).
class LiveRunnerCgroup : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cgroup_support().available) JUDGE_SKIP() << "no memory cgroup here: " << cgroup_support().missing;
  }
};

TEST_F(LiveRunnerCgroup, KillsAChildAtItsLimitAndIsRemovedAfterwards) {
  std::string error;
  std::unique_ptr<RunnerCgroup> cgroup = RunnerCgroup::create(cgroup_support(), 64ull << 20, 64, &error);
  ASSERT_TRUE(cgroup) << error;
  std::string directory = cgroup->directory();
  EXPECT_TRUE(fs::is_directory(directory));
  EXPECT_FALSE(cgroup->out_of_memory());
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (!join(*cgroup)) _exit(2);
    for (int i = 0; i < 64; ++i) {  // 256 MiB, written
      char* block = new char[4u << 20];
      std::memset(block, 1, 4u << 20);
    }
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the child was not killed (exit status " << WEXITSTATUS(status) << ")";
  EXPECT_EQ(WTERMSIG(status), SIGKILL);
  EXPECT_TRUE(cgroup->out_of_memory());
  EXPECT_GE(cgroup->peak_bytes(), 60ull << 20);
  cgroup.reset();
  EXPECT_FALSE(fs::exists(directory)) << "the cgroup was left behind";
}

TEST_F(LiveRunnerCgroup, AChildUnderItsLimitIsNotOutOfMemory) {
  std::string error;
  std::unique_ptr<RunnerCgroup> cgroup = RunnerCgroup::create(cgroup_support(), 64ull << 20, 64, &error);
  ASSERT_TRUE(cgroup) << error;
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (!join(*cgroup)) _exit(2);
    char* block = new char[8u << 20];
    std::memset(block, 1, 8u << 20);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_FALSE(cgroup->out_of_memory());
}

TEST_F(LiveRunnerCgroup, CountsTheCpuTimeOfEveryProcessInside) {
  if (!cgroup_support().cpu) JUDGE_SKIP() << "no CPU accounting here: " << cgroup_support().cpu_missing;
  std::string error;
  std::unique_ptr<RunnerCgroup> cgroup = RunnerCgroup::create(cgroup_support(), 64ull << 20, 64, &error);
  ASSERT_TRUE(cgroup) << error;
  ASSERT_TRUE(cgroup->cpu_ms());
  double before = *cgroup->cpu_ms();
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (!join(*cgroup)) _exit(2);
    // Half the work in a grandchild: the cgroup counts it all.
    pid_t grandchild = fork();
    volatile double sink = 0;
    timespec start{}, now{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start);
    do {
      for (int i = 0; i < 100000; ++i) sink = sink + i;
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    } while ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 < 150);
    if (grandchild == 0) _exit(0);
    waitpid(grandchild, nullptr, 0);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  double used = *cgroup->cpu_ms() - before;
  EXPECT_GT(used, 280) << "two processes of 150 ms each";
  EXPECT_LT(used, 2000);
}

TEST_F(LiveRunnerCgroup, CapsProcessesWhateverTheirUser) {
  if (!cgroup_support().pids) JUDGE_SKIP() << "no pids controller here: " << cgroup_support().pids_missing;
  std::string error;
  std::unique_ptr<RunnerCgroup> cgroup = RunnerCgroup::create(cgroup_support(), 64ull << 20, 8, &error);
  ASSERT_TRUE(cgroup) << error;
  EXPECT_TRUE(cgroup->limits_processes());
  int report[2];
  ASSERT_EQ(pipe(report), 0);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    setpgid(0, 0);  // a group of its own, for the kill below
    if (!join(*cgroup)) _exit(2);
    int made = 0;
    for (int i = 0; i < 20; ++i) {
      pid_t sleeper = fork();
      if (sleeper == 0) {
        pause();
        _exit(0);
      }
      if (sleeper < 0) break;
      ++made;
    }
    [[maybe_unused]] ssize_t n = write(report[1], &made, sizeof made);
    kill(0, SIGKILL);  // the sleepers, and this process
    _exit(0);
  }
  close(report[1]);
  int made = -1;
  ASSERT_EQ(read(report[0], &made, sizeof made), static_cast<ssize_t>(sizeof made));
  close(report[0]);
  waitpid(child, nullptr, 0);
  EXPECT_EQ(made, 7) << "8 processes in all, the first included";
}

}  // namespace
}  // namespace judge
