// Settings read from the environment, and the ids runners run as.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <set>
#include <vector>

#include "sandbox/identity.hpp"
#include "util/environment.hpp"
#include "util/errors.hpp"

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

TEST(RunnerIds, AreNeverHandedOutAgainWhileLeased) {
  RunnerIds held = take_runner_ids();
  ASSERT_TRUE(held.held());
  EXPECT_GE(held.uid(), 0x50000000u);
  EXPECT_LT(held.uid(), 0x60000000u);
  std::set<uid_t> seen;
  for (int i = 0; i < 1000; ++i) {
    RunnerIds next = take_runner_ids();  // released at once, as a runner that ended
    EXPECT_NE(next.uid(), held.uid()) << "spawn " << i << " got the live runner's uid";
    seen.insert(next.uid());
  }
  EXPECT_GT(seen.size(), 900u) << "released ids come round only after the range";
}

TEST(RunnerIds, OfASmallRangeSkipThoseLeasedAndRefuseWhenAllAre) {
  SubordinateIds ids;
  ids.uids = {165536, 8};
  ids.gids = {200000, 1000};
  std::vector<RunnerIds> leases;
  std::set<uid_t> uids;
  for (int i = 0; i < 8; ++i) {
    leases.push_back(take_subordinate_ids(ids));
    EXPECT_GE(leases.back().uid(), 165536u);
    EXPECT_LT(leases.back().uid(), 165536u + 8u) << "the smaller range bounds both";
    EXPECT_EQ(leases.back().gid() - 200000u, leases.back().uid() - 165536u);
    uids.insert(leases.back().uid());
  }
  EXPECT_EQ(uids.size(), 8u) << "a leased id was handed out twice";
  EXPECT_THROW(take_subordinate_ids(ids), JudgeFault);
  uid_t freed = leases[3].uid();
  leases[3] = RunnerIds();
  EXPECT_EQ(take_subordinate_ids(ids).uid(), freed);
}

TEST(RunnerIds, OfJudgesRunningAtOnceDiffer) {
  // Two processes (two judges) take ids at the same time from the machine's counter.
  int pipes[2];
  ASSERT_EQ(pipe(pipes), 0);
  pid_t other = fork();
  if (other == 0) {
    close(pipes[0]);
    std::vector<RunnerIds> kept;
    for (int i = 0; i < 200; ++i) {
      kept.push_back(take_runner_ids());
      uid_t uid = kept.back().uid();
      if (write(pipes[1], &uid, sizeof uid) != sizeof uid) _exit(1);
    }
    _exit(0);
  }
  close(pipes[1]);
  std::vector<RunnerIds> mine;
  for (int i = 0; i < 200; ++i) mine.push_back(take_runner_ids());
  std::set<uid_t> theirs;
  uid_t uid = 0;
  while (read(pipes[0], &uid, sizeof uid) == sizeof uid) theirs.insert(uid);
  close(pipes[0]);
  waitpid(other, nullptr, 0);
  ASSERT_EQ(theirs.size(), 200u);
  for (const RunnerIds& lease : mine) EXPECT_EQ(theirs.count(lease.uid()), 0u) << lease.uid() << " was handed to both";
}

}  // namespace
}  // namespace judge
