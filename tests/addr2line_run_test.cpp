// addr2line on a learner's runner runs sandboxed and bounded
// (check/addr2line_run.hpp), shown with fake addr2line programs
// (fake_addr2line.cpp, copied under the name of what they do) chosen by
// JUDGE_ADDR2LINE.
#include "check/addr2line_run.hpp"
#include "skip_here.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "check/crash_report.hpp"
#include "sandbox/sandbox.hpp"

namespace judge {
namespace {
namespace fs = std::filesystem;

class Addr2lineRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/judge-addr2line-test-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
    fs::permissions(dir_, fs::perms::owner_all | fs::perms::others_read | fs::perms::others_exec |
                              fs::perms::group_read | fs::perms::group_exec);
  }
  void TearDown() override {
    unsetenv("JUDGE_ADDR2LINE");
    fs::remove_all(dir_);
  }
  // Uses the fake that does `behaviour` from now on.
  void use_fake(const std::string& behaviour) {
    fs::path fake = dir_ / behaviour;
    fs::copy_file(FAKE_ADDR2LINE, fake, fs::copy_options::overwrite_existing);
    setenv("JUDGE_ADDR2LINE", fake.c_str(), 1);
  }
  // A file standing for a runner; each test its own, so that each starts
  // with the whole share of runs.
  std::string runner(const std::string& name) {
    fs::path path = dir_ / name;
    std::ofstream(path) << "not really a runner\n";
    fs::permissions(path,
                    fs::perms::owner_read | fs::perms::owner_write | fs::perms::others_read | fs::perms::group_read);
    return path.string();
  }
  fs::path dir_;
};

TEST_F(Addr2lineRunTest, ItsAnswerBecomesTheFramesOfEachAddress) {
  use_fake("answers");
  std::vector<std::vector<SourceFrame>> chains = addr2line_symbolizer(runner("a"), {0x10, 0x20});
  ASSERT_EQ(chains.size(), 2u);
  for (const auto& chain : chains) {
    ASSERT_EQ(chain.size(), 1u);
    EXPECT_EQ(chain[0].file, "/judge-build/solution.hpp");
    EXPECT_EQ(chain[0].line, 7);
  }
}

TEST_F(Addr2lineRunTest, SeesTheRunnerAndTheToolchainButNoneOfTheJudgesUsersFiles) {
  if (!sandbox_support().file_sandbox()) JUDGE_SKIP() << "no file sandbox here (see judge doctor)";
  fs::path secret = dir_ / "secret.txt";
  std::ofstream(secret) << "judge-secret\n";
  fs::permissions(secret, fs::perms::owner_all | fs::perms::others_read | fs::perms::group_read);
  use_fake("looks");
  std::optional<std::string> seen = run_addr2line(runner("b"), {"--secret=" + secret.string()});
  ASSERT_TRUE(seen) << "the fake did not run";
  EXPECT_NE(seen->find("readable 1"), std::string::npos) << "it cannot read the runner:\n" << *seen;
  EXPECT_NE(seen->find("secret unreadable"), std::string::npos) << *seen;
  for (const char* top : {"home", "root", "opt", "srv", "var", "work"})
    EXPECT_EQ(seen->find(std::string("top ") + top + "\n"), std::string::npos) << "it sees /" << top << ":\n" << *seen;
  if (sandbox_support().private_root)
    EXPECT_NE(seen->find("binary /judge/runner readable 1"), std::string::npos) << *seen;
}

TEST_F(Addr2lineRunTest, OneThatHitsItsMemoryLimitIsStoppedAndNoneRunsAgainForThatRunner) {
  use_fake("hogs");
  std::string heavy = runner("c");
  EXPECT_EQ(run_addr2line(heavy, {"0x10"}), std::nullopt) << "a gibibyte was allowed";
  use_fake("answers");
  EXPECT_EQ(run_addr2line(heavy, {"0x10"}), std::nullopt) << "it ran again for a runner that hit a limit";
  EXPECT_TRUE(run_addr2line(runner("d"), {"0x10"})) << "another runner keeps its share";
}

TEST_F(Addr2lineRunTest, ARunnerGetsAtMostItsShareOfRuns) {
  use_fake("answers");
  std::string crashing = runner("e");
  for (int i = 0; i < kMaxAddr2lineRuns; ++i)
    EXPECT_TRUE(run_addr2line(crashing, {"0x" + std::to_string(i + 1)})) << "run " << i;
  EXPECT_EQ(run_addr2line(crashing, {"0x99"}), std::nullopt);
}

}  // namespace
}  // namespace judge
