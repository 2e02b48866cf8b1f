// Which protections judging other people's code needs, decided from the
// probes (sandbox/untrusted_code.hpp), and what each command then does with
// a gap (sandbox/sandbox_policy.hpp): a learner's own code runs with a
// note, someone else's is refused in one line, --trust-submissions judges
// it and says what it gave up. The machine's own probes are not used: each
// case builds the probes of a mode (root, user with or without
// subordinate ids, a container) so that every mode is tested here.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sandbox/runner_cgroup.hpp"
#include "sandbox/sandbox.hpp"
#include "sandbox/sandbox_policy.hpp"
#include "sandbox/untrusted_code.hpp"
#include "util/errors.hpp"

namespace judge {
namespace {

// Root with every protection: a private root, its own runner users, a pids cgroup.
struct Machine {
  SandboxSupport sandbox;
  CgroupSupport cgroups;
  bool cgroups_in_use = true;
  bool filter = true;
  Machine() {
    sandbox.namespaces = sandbox.private_root = true;
    sandbox.landlock_abi = 3;
    sandbox.drop_to_nobody = true;
    cgroups.available = cgroups.pids = true;
  }
  std::vector<std::string> gaps() const {
    std::vector<std::string> names;
    for (const SandboxGap& gap :
         gaps_for_untrusted_code({sandbox, cgroups, cgroups_in_use, filter, filter ? "" : "seccomp is missing"}))
      names.push_back(gap.protection);
    return names;
  }
  // An ordinary user: runners keep its user unless it has subordinate ids.
  Machine& as_user() {
    sandbox.drop_to_nobody = false;
    sandbox.subordinate_missing = "no subordinate ids for this user in /etc/subuid";
    return *this;
  }
};

TEST(UntrustedCode, RootWithEveryProtectionHasNoGap) { EXPECT_EQ(Machine().gaps(), std::vector<std::string>{}); }

TEST(UntrustedCode, NoPrivateRootAndNoLandlockIsNoFileSandbox) {
  Machine container;
  container.sandbox.private_root = false;
  container.sandbox.landlock_abi = 0;
  EXPECT_EQ(container.gaps(), std::vector<std::string>{"file sandbox"});
  container.sandbox.landlock_abi = 1;  // Landlock alone is a file sandbox
  EXPECT_EQ(container.gaps(), std::vector<std::string>{});
}

TEST(UntrustedCode, ThreadsUncappedWithoutAPidsCgroupOrACountingRlimit) {
  Machine user;
  user.as_user();
  user.cgroups.pids = false;
  // The user's runners keep its user, RLIMIT_NPROC would count all of its
  // processes, and the kernel does not count per namespace: nothing caps.
  EXPECT_EQ(user.gaps(), std::vector<std::string>{"process cap"});
  user.sandbox.namespace_process_cap = true;  // Linux 5.14: counted per user namespace
  EXPECT_EQ(user.gaps(), std::vector<std::string>{});
  user.sandbox.namespace_process_cap = false;
  user.cgroups.pids = true;
  user.cgroups_in_use = false;  // a pids controller the judge does not use caps nothing
  EXPECT_EQ(user.gaps(), std::vector<std::string>{"process cap"});
  user.cgroups_in_use = true;
  EXPECT_EQ(user.gaps(), std::vector<std::string>{});
}

TEST(UntrustedCode, RunnersOfTheJudgesUserNeedTheFilter) {
  Machine user;
  user.as_user();
  user.filter = false;
  EXPECT_EQ(user.gaps(), std::vector<std::string>{"runner user"});
  user.sandbox.subordinate = SubordinateIds{};  // runners get ids of their own
  EXPECT_EQ(user.gaps(), std::vector<std::string>{});
}

TEST(UntrustedCode, EveryGapIsNamedWithWhyAndWhatItAllows) {
  Machine bare;
  bare.as_user();
  bare.sandbox.private_root = false;
  bare.sandbox.landlock_abi = 0;
  bare.sandbox.landlock_missing = "landlock_create_ruleset: ENOSYS";
  bare.cgroups.pids = false;
  bare.filter = false;
  std::vector<SandboxGap> gaps =
      gaps_for_untrusted_code({bare.sandbox, bare.cgroups, true, false, "seccomp is missing"});
  ASSERT_EQ(gaps.size(), 3u);
  std::string line = describe_gaps(gaps);
  for (const char* part : {"no file sandbox (", "landlock_create_ruleset: ENOSYS", "no process cap (",
                           "no runner user (", "seccomp is missing", "starve"})
    EXPECT_NE(line.find(part), std::string::npos) << part << " in: " << line;
  EXPECT_EQ(line.find('\n'), std::string::npos) << "one line";
  for (const SandboxGap& gap : gaps) EXPECT_FALSE(gap.how.empty()) << gap.protection << " says how to get it";
}

TEST(SandboxPolicy, OthersCodeIsRefusedUnlessTrustedOwnCodeRunsWithANote) {
  std::vector<SandboxGap> gaps = {{"process cap", "pids cgroup: none", "threads are not capped", "how"}};
  try {
    check_sandbox_for("grade", /*others_code=*/true, /*trusted=*/false, gaps);
    ADD_FAILURE() << "grade judged other people's code without a process cap";
  } catch (const JudgeFault& refusal) {
    EXPECT_EQ(refusal.message.find("grade: refusing to judge other people's code here: no process cap"), 0u)
        << refusal.message;
    EXPECT_NE(refusal.message.find("judge doctor"), std::string::npos);
    EXPECT_NE(refusal.message.find("--trust-submissions"), std::string::npos);
  }
  EXPECT_EQ(check_sandbox_for("grade", true, /*trusted=*/true, gaps).rfind("judged with --trust-submissions", 0), 0u);
  EXPECT_EQ(check_sandbox_for("run", /*others_code=*/false, false, gaps).rfind("your code ran without", 0), 0u);
  EXPECT_EQ(check_sandbox_for("grade", true, false, {}), "") << "nothing missing, nothing said";
}

}  // namespace
}  // namespace judge
