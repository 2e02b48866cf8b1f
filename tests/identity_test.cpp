// Settings read from the environment, and the ids runners run as.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <set>

#include "sandbox/identity.hpp"
#include "util/environment.hpp"

namespace judge {
namespace {

TEST(EnvironmentFlag, OnlyOneTrueAndYesAreOn) {
  const char* name = "JUDGE_TEST_FLAG_FOR_IDENTITY_TEST";
  unsetenv(name);
  EXPECT_FALSE(environment_flag(name));
  for (const char* on : {"1", "true", "TRUE", "yes", "Yes"}) {
    setenv(name, on, 1);
    EXPECT_TRUE(environment_flag(name)) << on;
  }
  for (const char* off : {"0", "", "false", "no", "off", "2", "yes please"}) {
    setenv(name, off, 1);
    EXPECT_FALSE(environment_flag(name)) << "'" << off << "'";
  }
  unsetenv(name);
}

TEST(EnvironmentInteger, FallsBackOutsideItsRange) {
  const char* name = "JUDGE_TEST_INTEGER_FOR_IDENTITY_TEST";
  setenv(name, "42", 1);
  EXPECT_EQ(environment_integer(name, 1, 100, 7), 42);
  for (const char* bad : {"0", "101", "4x", "", "-3"}) {
    setenv(name, bad, 1);
    EXPECT_EQ(environment_integer(name, 1, 100, 7), 7) << bad;
  }
  unsetenv(name);
  EXPECT_EQ(environment_integer(name, 1, 100, 7), 7);
}

TEST(RunnerUids, AreDistinctForTheLast64AndCarryTheProcessId) {
  std::set<uid_t> seen;
  for (int i = 0; i < 64; ++i) seen.insert(next_runner_uid());
  EXPECT_EQ(seen.size(), 64u);
  for (uid_t uid : seen) {
    EXPECT_GE(uid, 0x50000000u);
    EXPECT_LT(uid, 0x60000000u);
    EXPECT_EQ((uid - 0x50000000u) >> 6, static_cast<uid_t>(getpid()) & 0x3fffffu)
        << "another judge's process id gives other uids";
  }
}

TEST(SubordinateRange, FindsTheUsersLineByNameOrUid) {
  const std::string text = "root:100000:65536\nalice:165536:65536\n1001:231072:1000\nbroken:x:1\n";
  ASSERT_TRUE(subordinate_range(text, "alice", 1000));
  EXPECT_EQ(subordinate_range(text, "alice", 1000)->first, 165536u);
  EXPECT_EQ(subordinate_range(text, "alice", 1000)->count, 65536u);
  ASSERT_TRUE(subordinate_range(text, "bob", 1001));
  EXPECT_EQ(subordinate_range(text, "bob", 1001)->first, 231072u);
  EXPECT_FALSE(subordinate_range(text, "carol", 1002));
  EXPECT_FALSE(subordinate_range(text, "broken", 1003));
}

TEST(SubordinateIds, RunnersGetIdsInsideTheRanges) {
  SubordinateIds ids;
  ids.uids = {165536, 65536};
  ids.gids = {200000, 1000};
  for (int i = 0; i < 100; ++i) {
    auto [uid, gid] = next_subordinate_ids(ids);
    EXPECT_GE(uid, 165536u);
    EXPECT_LT(uid, 165536u + 1000u) << "the smaller range bounds both";
    EXPECT_EQ(gid - 200000u, uid - 165536u);
  }
}

}  // namespace
}  // namespace judge
