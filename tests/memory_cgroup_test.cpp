// Memory cgroups: finding the judge's own cgroup from made-up /proc files,
// and, where this machine allows, a real cgroup that kills at its limit and
// leaves nothing behind.
#include "sandbox/memory_cgroup.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
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

TEST(FindMemoryCgroups, HybridMachineHasBothHierarchies) {
  CgroupCandidates found = find_memory_cgroups(kHybridMountinfo, kHybridCgroup);
  ASSERT_TRUE(found.v1);
  EXPECT_EQ(found.v1->version, CgroupVersion::kV1);
  EXPECT_EQ(found.v1->directory, "/sys/fs/cgroup/memory/process_api/97275dcc");
  ASSERT_TRUE(found.v2);
  EXPECT_EQ(found.v2->version, CgroupVersion::kV2);
  EXPECT_EQ(found.v2->directory, "/sys/fs/cgroup/unified");
}

TEST(FindMemoryCgroups, UnifiedMachineUnderSystemd) {
  CgroupCandidates found = find_memory_cgroups(
      "25 22 0:22 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate\n",
      "0::/user.slice/user-1000.slice/user@1000.service/app.slice/judge.scope\n");
  EXPECT_FALSE(found.v1);
  ASSERT_TRUE(found.v2);
  EXPECT_EQ(found.v2->directory, "/sys/fs/cgroup/user.slice/user-1000.slice/user@1000.service/app.slice/judge.scope");
}

TEST(FindMemoryCgroups, MountOfASubtreeAndEscapedSpaces) {
  // A container sees only its own subtree, mounted where it has a space.
  CgroupCandidates found = find_memory_cgroups(
      "40 30 0:37 /docker/abc /sys/fs/my\\040cgroups rw - cgroup2 cgroup2 rw\n", "0::/docker/abc/inner\n");
  ASSERT_TRUE(found.v2);
  EXPECT_EQ(found.v2->directory, "/sys/fs/my cgroups/inner");
  // A cgroup outside what is mounted cannot be reached.
  EXPECT_FALSE(
      find_memory_cgroups("40 30 0:37 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n", "0::/elsewhere\n").v2);
}

TEST(FindMemoryCgroups, NothingWithoutAMemoryHierarchy) {
  CgroupCandidates found =
      find_memory_cgroups("31 30 0:28 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n", "1:cpu:/\n");
  EXPECT_FALSE(found.v1);
  EXPECT_FALSE(found.v2);
  EXPECT_FALSE(find_memory_cgroups("", "").v1);
}

TEST(CgroupKeyValue, ReadsTheNumberAfterTheKey) {
  EXPECT_EQ(cgroup_key_value("oom_kill_disable 0\nunder_oom 0\noom_kill 3\n", "oom_kill"), 3u);
  EXPECT_EQ(cgroup_key_value("low 0\nhigh 0\nmax 12\noom 2\noom_kill 1\n", "oom"), 2u);
  EXPECT_FALSE(cgroup_key_value("oom_kill_disable 0\n", "oom_kill"));
}

// A real cgroup: needs a writable memory hierarchy (root, or a delegated
// cgroup v2).
class LiveMemoryCgroup : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!memory_cgroup_support().available)
      GTEST_SKIP() << "no memory cgroup here: " << memory_cgroup_support().missing;
  }
};

TEST_F(LiveMemoryCgroup, KillsAChildAtItsLimitAndIsRemovedAfterwards) {
  std::string error;
  std::unique_ptr<MemoryCgroup> cgroup = MemoryCgroup::create(memory_cgroup_support().parent, 64ull << 20, &error);
  ASSERT_TRUE(cgroup) << error;
  std::string directory = cgroup->directory();
  EXPECT_TRUE(fs::is_directory(directory));
  EXPECT_FALSE(cgroup->out_of_memory());
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (write(cgroup->procs_fd(), "0", 1) != 1) _exit(2);
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

TEST_F(LiveMemoryCgroup, AChildUnderItsLimitIsNotOutOfMemory) {
  std::string error;
  std::unique_ptr<MemoryCgroup> cgroup = MemoryCgroup::create(memory_cgroup_support().parent, 64ull << 20, &error);
  ASSERT_TRUE(cgroup) << error;
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (write(cgroup->procs_fd(), "0", 1) != 1) _exit(2);
    char* block = new char[8u << 20];
    std::memset(block, 1, 8u << 20);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_FALSE(cgroup->out_of_memory());
}

}  // namespace
}  // namespace judge
