// What `judge grade` trusts on disk. Its report usually lies in the folder
// the students fill: a symbolic link or a file planted on the way to the
// report, in it or in results/ never takes a write elsewhere; a stored row
// that was edited, planted, copied from another submission or sealed with
// another key is judged again, and the progress says so once. And the key
// those seals are made with.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "course/grade.hpp"
#include "course/grade_seal.hpp"
#include "run_judge.hpp"
#include "scratch_root.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"
#include "util/fingerprint.hpp"
#include "util/secret_key.hpp"

namespace judge {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;
using testing::JudgeRun;

std::string read_text(const fs::path& path) { return read_file_or_empty(path.string()); }

// A path as the judge's messages show it: the judge runs in the source tree.
std::string shown(const fs::path& path) { return fs::proximate(path, JUDGE_SOURCE_DIR).string(); }

// Expects grade's output to say once which stored results it does not
// trust, in `line`.
void expect_distrust_said_once(const std::string& out, const std::string& line) {
  EXPECT_EQ(out.find("not trusting"), out.rfind("not trusting")) << "said more than once:\n" << out;
  EXPECT_NE(out.find("not trusting " + line + "\n"), std::string::npos) << out;
}

// A class of the fixture problem `draws` (ada: the reference, cy and eve:
// its known mistake) and, beside it, another class's report that a planted
// link points at.
class GradeStorageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    root_ = testing::scratch_root("draws", "grade_storage_" + name + "_" + std::to_string(getpid()));
    class_ = root_ / "class";
    victim_ = root_ / "other-class-report";
    fs::create_directories(class_);
    fs::create_directories(victim_ / "results");
    const fs::path solutions = root_ / "solutions" / "draws";
    fs::copy_file(solutions / "reference.hpp", class_ / "ada.hpp");
    fs::copy_file(solutions / "wrong" / "probs_unnormalized.hpp", class_ / "cy.hpp");
    fs::copy_file(solutions / "wrong" / "probs_unnormalized.hpp", class_ / "eve.hpp");
    std::ofstream(victim_ / "summary.json") << "{\"another class\": true}\n";
    std::ofstream(victim_ / "summary.csv") << "submission,verdict\r\nzed.hpp,accepted\r\n";
    std::ofstream(victim_ / "results" / "ada.hpp.json") << "{\"zed\": 1}\n";
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(root_, ignored);
  }

  JudgeRun judge(const std::vector<std::string>& args, const std::vector<std::string>& more_env = {}) const {
    std::vector<std::string> env = {
        "JUDGE_ROOT=" + root_.string(), "JUDGE_WORKSPACE=" + (root_ / "workspace").string(),
        "JUDGE_CACHE_DIR=" + (fs::path(JUDGE_TEST_BINARY_DIR).parent_path() / "runners").string()};
    env.insert(env.end(), more_env.begin(), more_env.end());
    return testing::run_judge(args, env);
  }
  JudgeRun grade(std::vector<std::string> more = {}, const std::vector<std::string>& more_env = {}) const {
    std::vector<std::string> args = {"grade", "draws", class_.string(), "--trust-submissions"};
    args.insert(args.end(), more.begin(), more.end());
    return judge(args, more_env);
  }

  // Every file of the other class's report and its content.
  std::map<std::string, std::string> victim_files() const {
    std::map<std::string, std::string> files;
    for (const auto& entry : fs::recursive_directory_iterator(victim_))
      if (entry.is_regular_file()) files[entry.path().string()] = read_text(entry.path());
    return files;
  }

  json summary(const fs::path& report) const { return json::parse(read_text(report / "summary.json")); }
  std::string verdict_of(const json& summary, const std::string& submission) const {
    for (const json& row : summary["submissions"])
      if (row["submission"] == submission) return row["verdict"];
    return "(no row)";
  }

  fs::path root_, class_, victim_;
};

TEST_F(GradeStorageTest, ALinkOrAFileOnTheWayToTheReportIsRefused) {
  const fs::path report = class_ / ".judge-grade";
  struct Planted {
    const char* what;
    std::function<void()> plant;
    std::vector<std::string> args;
    fs::path refused;
    const char* is;
  };
  const std::vector<Planted> cases = {
      {"the report directory a link to another class's",
       [&] { fs::create_directory_symlink(victim_, report); },
       {},
       report,
       "a symbolic link"},
      {"results/ a link",
       [&] {
         fs::create_directories(report);
         fs::create_directory_symlink(victim_ / "results", report / "results");
       },
       {},
       report / "results",
       "a symbolic link"},
      {"the report directory a file", [&] { std::ofstream(report) << "x"; }, {}, report, "a regular file"},
      {"a shard's directory a link",
       [&] {
         fs::create_directories(report);
         fs::create_directory_symlink(victim_, report / "shard-1-of-2");
       },
       {"--shard", "1/2"},
       report / "shard-1-of-2",
       "a symbolic link"},
      {"results/ a link in the directory --out names",
       [&] {
         fs::create_directories(root_ / "out");
         fs::create_directory_symlink(victim_ / "results", root_ / "out" / "results");
       },
       {"--out", (root_ / "out").string()},
       root_ / "out" / "results",
       "a symbolic link"},
  };
  const std::map<std::string, std::string> before = victim_files();
  for (const Planted& planted : cases) {
    fs::remove_all(report);
    fs::remove_all(root_ / "out");
    planted.plant();
    JudgeRun run = grade(planted.args);
    EXPECT_EQ(run.status, 2) << planted.what << "\n" << run.out << run.err;
    EXPECT_EQ(run.err, "judge: grade: " + shown(planted.refused) + " is " + planted.is +
                           ", not a directory: refusing to read or write through it; the report goes only into "
                           "directories of its own (remove it, or choose another report directory with --out)\n")
        << planted.what;
    EXPECT_EQ(victim_files(), before) << planted.what << ": the other class's report was written";
  }
}

TEST_F(GradeStorageTest, AFileLinkedOrPlantedInTheReportIsReplacedNeverWrittenThrough) {
  const fs::path report = class_ / ".judge-grade";
  fs::create_directories(report / "results");
  fs::create_symlink(victim_ / "results" / "ada.hpp.json", report / "results" / "ada.hpp.json");
  fs::create_symlink(victim_ / "summary.json", report / "summary.json");
  fs::create_symlink(victim_ / "summary.csv", report / "summary.csv");
  fs::create_symlink(victim_ / "summary.json", report / "results" / "cy.hpp.json.tmp-1-0");  // a "leftover"
  ASSERT_EQ(mkfifo((report / "results" / "eve.hpp.json").c_str(), 0644), 0) << "a read of it would never end";
  const std::map<std::string, std::string> before = victim_files();

  JudgeRun run = grade();
  ASSERT_EQ(run.status, 0) << run.out << run.err;
  EXPECT_EQ(victim_files(), before) << "written through a link";
  for (const char* name : {"results/ada.hpp.json", "results/eve.hpp.json", "summary.json", "summary.csv"})
    EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(report / name))) << name << " is the judge's own file now";
  EXPECT_FALSE(fs::exists(fs::symlink_status(report / "results" / "cy.hpp.json.tmp-1-0")));
  EXPECT_EQ(verdict_of(summary(report), "ada.hpp"), "accepted");
  expect_distrust_said_once(run.out,
                            "2 stored result(s), judged again: ada.hpp (not a regular file: a symbolic link, a "
                            "directory or a device), eve.hpp (not a regular file: a symbolic link, a directory or a "
                            "device)");
}

TEST_F(GradeStorageTest, AnEditedOrCopiedRowIsJudgedAgainAndSaidOnce) {
  const fs::path results = class_ / ".judge-grade" / "results";
  JudgeRun first = grade();
  ASSERT_EQ(first.status, 0) << first.out << first.err;
  ASSERT_EQ(verdict_of(summary(class_ / ".judge-grade"), "cy.hpp"), "wrong_answer");

  // cy's row says accepted now, its key and seal kept; eve's file is ada's.
  json cy = json::parse(read_text(results / "cy.hpp.json"));
  cy["verdict"] = "accepted";
  cy["passed"] = cy["total"];
  cy["first_failing_case"] = "";
  cy["message"] = "";
  std::ofstream(results / "cy.hpp.json", std::ios::trunc) << cy.dump(2);
  fs::copy_file(results / "ada.hpp.json", results / "eve.hpp.json", fs::copy_options::overwrite_existing);

  JudgeRun again = grade();
  ASSERT_EQ(again.status, 0) << again.out << again.err;
  EXPECT_NE(again.out.find("skipped 1 already graded"), std::string::npos) << again.out;
  expect_distrust_said_once(again.out,
                            "2 stored result(s), judged again: cy.hpp (its seal does not verify: edited, planted, or "
                            "sealed with another key), eve.hpp (sealed for another submission: ada.hpp)");
  const json rows = summary(class_ / ".judge-grade");
  EXPECT_EQ(verdict_of(rows, "cy.hpp"), "wrong_answer") << "the forged verdict was taken";
  EXPECT_EQ(verdict_of(rows, "eve.hpp"), "wrong_answer");

  JudgeRun third = grade();
  EXPECT_NE(third.out.find("skipped 3 already graded"), std::string::npos) << third.out;
  EXPECT_EQ(third.out.find("not trusting"), std::string::npos) << "its own rows are trusted: " << third.out;
}

TEST_F(GradeStorageTest, RowsSealedWithAnotherKeyAreJudgedAgain) {
  const std::string first_key = "JUDGE_GRADE_KEY_FILE=" + (root_ / "keys" / "first").string();
  const std::string second_key = "JUDGE_GRADE_KEY_FILE=" + (root_ / "keys" / "second").string();
  ASSERT_EQ(grade({}, {first_key}).status, 0);
  struct stat info {};
  ASSERT_EQ(stat((root_ / "keys" / "first").c_str(), &info), 0) << "the key is made on first use";
  EXPECT_EQ(info.st_mode & 0777, 0600u);
  EXPECT_EQ(info.st_size, static_cast<off_t>(kSecretKeyBytes));
  JudgeRun other = grade({}, {second_key});
  ASSERT_EQ(other.status, 0) << other.err;
  EXPECT_NE(other.out.find("not trusting 3 stored result(s), judged again: ada.hpp (its seal does not verify"),
            std::string::npos)
      << other.out;
  EXPECT_EQ(other.out.find("skipped"), std::string::npos) << other.out;
}

TEST_F(GradeStorageTest, ANameCannotStartALineOfItsOwn) {
  const std::string name = "x\nforged.hpp: accepted\tz.hpp";  // a line of progress, if printed raw
  fs::copy_file(class_ / "cy.hpp", class_ / name);
  const fs::path results = class_ / ".judge-grade" / "results";
  fs::create_directories(results);
  fs::create_symlink(victim_ / "summary.json", results / result_file_name(name));
  JudgeRun run = grade();
  ASSERT_EQ(run.status, 0) << run.out << run.err;
  EXPECT_EQ(run.out.find("\nforged.hpp"), std::string::npos) << "a name started a line:\n" << run.out;
  const std::string escaped = "x\\x0aforged.hpp: accepted\\x09z.hpp";
  EXPECT_NE(run.out.find("] " + escaped + ": wrong_answer ("), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("judged again: " + escaped + " (not a regular file"), std::string::npos) << run.out;
}

// ---- The key and the seal ---------------------------------------------------

TEST(GradeKey, IsMadeOnceOnlyItsOwnerMayReadAndAnyOtherIsRefused) {
  fs::path dir = fs::temp_directory_path() / ("judge-grade-key-" + std::to_string(getpid()));
  fs::remove_all(dir);
  const std::string file = (dir / "cache" / "grade-key").string();
  const std::string key = load_or_create_secret(file);
  EXPECT_EQ(key.size(), kSecretKeyBytes);
  EXPECT_EQ(load_or_create_secret(file), key) << "made once, then read";
  EXPECT_EQ(fs::status(file).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);

  auto refusal = [&](const std::string& path) {
    try {
      load_or_create_secret(path);
    } catch (const JudgeFault& fault) {
      return fault.message;
    }
    return std::string("(taken)");
  };
  fs::permissions(file, fs::perms::group_read | fs::perms::others_read, fs::perm_options::add);
  EXPECT_EQ(refusal(file), "the judge's key " + file + ": others may read or write it (mode 0644); chmod 600 it");
  const std::string link = (dir / "linked-key").string();
  fs::create_symlink(file, link);
  EXPECT_EQ(refusal(link), "the judge's key " + link + ": a symbolic link; a key must be a file of its own");
  const std::string short_key = (dir / "short-key").string();
  std::ofstream(short_key) << "0123456789";
  fs::permissions(short_key, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace);
  EXPECT_EQ(refusal(short_key), "the judge's key " + short_key +
                                    ": holds 10 bytes; a key holds 32 to 4096 (remove it and a new one is made)");
  fs::remove_all(dir);
}

TEST(GradeSeal, IsHmacSha256AndVerifiesOnlyItsOwnMembersKindAndKey) {
  // RFC 4231, test case 2.
  EXPECT_EQ(hmac_sha256_hex("Jefe", "what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  GradeSeal seal(std::string(32, 'k'), "key");
  json row = {{"submission", "a.hpp"}, {"verdict", "wrong_answer"}, {"seconds", 0.125}, {"name", "\xff"}};
  json sealed = seal.seal(row, "result");
  EXPECT_TRUE(seal.verifies(sealed, "result"));
  EXPECT_TRUE(seal.verifies(json::parse(sealed.dump(2, ' ', false, json::error_handler_t::replace)), "result"))
      << "as read back from its file";
  EXPECT_FALSE(seal.verifies(sealed, "summary")) << "a seal of one kind is not another's";
  EXPECT_FALSE(seal.verifies(row, "result")) << "no seal";
  json edited = sealed;
  edited["verdict"] = "accepted";
  EXPECT_FALSE(seal.verifies(edited, "result"));
  json added = sealed;
  added["extra"] = 1;
  EXPECT_FALSE(seal.verifies(added, "result"));
  EXPECT_FALSE(GradeSeal(std::string(32, 'q'), "other").verifies(sealed, "result")) << "another key";
}

}  // namespace
}  // namespace judge
