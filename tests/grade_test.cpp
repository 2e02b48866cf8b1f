// judge grade: a folder with a correct, a wrong, a slow and a
// non-compiling submission is graded in parallel, every one gets its row,
// a rerun skips what is unchanged and judges again what changed; a
// submission the judge cannot handle is an "error" row, not a stop.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "course/grade.hpp"
#include "fixture_files.hpp"
#include "run_judge.hpp"

namespace judge {
namespace {
namespace fs = std::filesystem;
using testing::JudgeRun;
using testing::run_judge;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The reference, renamed, behind a function that hangs on a valid input of
// one logit: slow on a few cases, right on the others.
std::string hangs_on_one_logit() {
  std::string source = read_file(fs::path(JUDGE_SOURCE_DIR) / "solutions/temperature/reference.hpp");
  for (std::size_t at; (at = source.find("softmax_with_temperature(")) != std::string::npos;)
    source.replace(at, std::string("softmax_with_temperature(").size(), "reference_softmax(");
  return source + R"(
inline std::vector<double> softmax_with_temperature(const std::vector<double>& logits, double temperature) {
  if (logits.size() == 1 && temperature > 0 && std::isfinite(temperature) && std::isfinite(logits[0])) {
    volatile bool forever = true;
    while (forever) {
    }
  }
  return reference_softmax(logits, temperature);
}
)";
}

class GradeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // A fixed place, so a rerun of the tests finds the runners in the cache.
    dir_ = fs::path(JUDGE_TEST_BINARY_DIR) / "grade_test.files" /
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  void add(const std::string& name, const std::string& source) {
    fs::copy_file(fs::path(JUDGE_SOURCE_DIR) / source, dir_ / name, fs::copy_options::overwrite_existing);
  }

  fs::path dir_;
};

TEST_F(GradeTest, GradesEverySubmissionResumesAndJudgesAChangedFileAgain) {
  add("alice.hpp", "solutions/temperature/reference.hpp");
  add("bob.hpp", "solutions/temperature/wrong/no_validation.hpp");
  std::ofstream(dir_ / "carol.hpp") << hangs_on_one_logit();
  add("dave.cpp", "tests/fixtures/temperature/compile_error.hpp");
  std::ofstream(dir_ / "notes.txt") << "not a submission\n";

  JudgeRun first = run_judge({"grade", "temperature", dir_.string(), "--jobs", "2"});
  ASSERT_EQ(first.status, 0) << first.out << first.err;
  EXPECT_NE(first.out.find("grading 4 submission(s) of temperature"), std::string::npos) << first.out;
  EXPECT_NE(first.out.find("carol.hpp: time_limit_exceeded"), std::string::npos) << first.out;

  nlohmann::json summary = nlohmann::json::parse(read_file(dir_ / ".judge-grade" / "summary.json"));
  EXPECT_EQ(summary["problem"], "temperature");
  ASSERT_EQ(summary["submissions"].size(), 4u);
  const auto& rows = summary["submissions"];
  EXPECT_EQ(rows[0]["submission"], "alice.hpp");
  EXPECT_EQ(rows[0]["verdict"], "accepted");
  EXPECT_EQ(rows[0]["passed"], rows[0]["total"]);
  EXPECT_EQ(rows[0]["first_failing_case"], "");
  EXPECT_EQ(rows[1]["verdict"], "wrong_answer");
  EXPECT_NE(rows[1]["message"].get<std::string>().find("expected std::invalid_argument"), std::string::npos);
  EXPECT_EQ(rows[2]["submission"], "carol.hpp");
  EXPECT_EQ(rows[2]["verdict"], "time_limit_exceeded");
  EXPECT_GT(rows[2]["passed"], 0) << "the cases it answers in time earn their credit";
  EXPECT_LT(rows[2]["passed"], rows[2]["total"]);
  EXPECT_EQ(rows[3]["submission"], "dave.cpp");
  EXPECT_EQ(rows[3]["verdict"], "compile_error");
  EXPECT_NE(rows[3]["message"].get<std::string>().find("dave.cpp:8:40: error:"), std::string::npos) << rows[3];

  std::string csv = read_file(dir_ / ".judge-grade" / "summary.csv");
  std::string total = std::to_string(rows[0]["total"].get<int>());
  EXPECT_EQ(csv.rfind("submission,verdict,passed,total,seconds,first_failing_case,message\r\nalice.hpp,accepted," +
                          total + "," + total + ",",
                      0),
            0u)
      << csv;
  EXPECT_NE(csv.find("\r\nbob.hpp,wrong_answer,"), std::string::npos) << csv;
  for (const char* name : {"alice.hpp", "bob.hpp", "carol.hpp", "dave.cpp"})
    EXPECT_TRUE(fs::is_regular_file(dir_ / ".judge-grade" / "results" / (std::string(name) + ".json"))) << name;

  JudgeRun again = run_judge({"grade", "temperature", dir_.string()});
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_NE(again.out.find("skipped 4 already graded"), std::string::npos) << again.out;
  EXPECT_EQ(again.out.find("[1/"), std::string::npos) << "nothing judged: " << again.out;

  std::ofstream(dir_ / "bob.hpp", std::ios::app) << "// resubmitted\n";
  JudgeRun changed = run_judge({"grade", "temperature", dir_.string()});
  ASSERT_EQ(changed.status, 0) << changed.err;
  EXPECT_NE(changed.out.find("skipped 3 already graded"), std::string::npos) << changed.out;
  EXPECT_NE(changed.out.find("[1/1] bob.hpp: wrong_answer"), std::string::npos) << changed.out;
}

TEST_F(GradeTest, ASubmissionTheJudgeCannotHandleIsAnErrorRow) {
  add("alice.hpp", "solutions/temperature/reference.hpp");
  fs::create_symlink("nowhere.hpp", dir_ / "ghost.hpp");  // a link to nothing: there is no file to judge
  fs::path out = dir_ / "report";
  JudgeRun run = run_judge({"grade", "temperature", dir_.string(), "--out", out.string()});
  EXPECT_EQ(run.status, 2) << "a submission was not judged";
  EXPECT_NE(run.err.find("1 submission(s) could not be judged"), std::string::npos) << run.err;
  nlohmann::json summary = nlohmann::json::parse(read_file(out / "summary.json"));
  ASSERT_EQ(summary["submissions"].size(), 2u);
  EXPECT_EQ(summary["submissions"][0]["verdict"], "accepted");
  EXPECT_EQ(summary["submissions"][1]["verdict"], "error");
  EXPECT_EQ(summary["submissions"][1]["message"], "the judge could not judge it: ghost.hpp: no such file");
  JudgeRun again = run_judge({"grade", "temperature", dir_.string(), "--out", out.string()});
  EXPECT_NE(again.out.find("skipped 1 already graded"), std::string::npos)
      << "the error row is tried again: " << again.out;
}

// A submission slow on some cases: grade judges every case, so it earns
// each case it passes after its time-outs; --stop-after-timeouts stops it
// after three, as `run` does, and the cases never run earn nothing.
TEST_F(GradeTest, EveryCaseOfASlowSubmissionIsJudgedUnlessAskedToStopAfterTimeouts) {
  std::ofstream(dir_ / "slow.hpp") << hangs_on_one_logit();
  // The public result marks a case never run by its message, "not run: ...".
  auto graded = [&](const std::string& out, std::vector<std::string> options) {
    std::vector<std::string> args = {"grade", "temperature", dir_.string(), "--out", (dir_ / out).string()};
    args.insert(args.end(), options.begin(), options.end());
    JudgeRun run = run_judge(args);
    EXPECT_EQ(run.status, 0) << run.out << run.err;
    return nlohmann::json::parse(read_file(dir_ / out / "results" / "slow.hpp.json"));
  };

  nlohmann::json every = graded("every", {});
  const nlohmann::json& row = every;  // the row's fields, with the whole result beside them
  EXPECT_EQ(row["verdict"], "time_limit_exceeded");
  std::size_t timeouts = 0, not_run = 0;
  for (const nlohmann::json& test : every["result"]["tests"]) {
    timeouts += test["verdict"] == "time_limit_exceeded";
    not_run += test["message"].get<std::string>().rfind("not run:", 0) == 0;
    EXPECT_TRUE(test["verdict"] == "accepted" || test["verdict"] == "time_limit_exceeded") << test;
  }
  ASSERT_GT(timeouts, 3u) << "too few cases of one logit to need judging past three time-outs";
  EXPECT_EQ(not_run, 0u) << every["result"]["tests"];
  EXPECT_EQ(row["passed"].get<std::size_t>() + timeouts, row["total"].get<std::size_t>()) << row;

  nlohmann::json stopped = graded("stopped", {"--stop-after-timeouts"});
  std::size_t stopped_not_run = 0;
  for (const nlohmann::json& test : stopped["result"]["tests"])
    stopped_not_run += test["message"].get<std::string>().rfind("not run:", 0) == 0;
  EXPECT_GT(stopped_not_run, 0u) << "three time-outs stop the rest";
  EXPECT_LT(stopped["passed"], row["passed"]) << "a case not run earns nothing";
}

// What a runner forges on the judge's channel is its submission's verdict:
// a reply holding text that is not UTF-8, as a value or as an exception's
// message, is a runtime_error row (not an error row, which every rerun
// would judge again), and every report prints it.
TEST_F(GradeTest, AForgedReplyOfInvalidUtf8IsARuntimeErrorRowAndEveryReportPrintsIt) {
  const std::string fixtures[] = {"hostile/forges_invalid_utf8_in_a_value.hpp",
                                  "hostile/forges_invalid_utf8_in_an_exception.hpp"};
  for (const std::string& fixture : fixtures)
    fs::copy_file(testing::fixture_file(fixture), dir_ / fs::path(fixture).filename());
  JudgeRun run = run_judge({"grade", "temperature", dir_.string(), "--jobs", "2"});
  ASSERT_EQ(run.status, 0) << run.out << run.err;
  nlohmann::json summary = nlohmann::json::parse(read_file(dir_ / ".judge-grade" / "summary.json"));
  ASSERT_EQ(summary["submissions"].size(), 2u);
  for (const nlohmann::json& row : summary["submissions"]) {
    EXPECT_EQ(row["verdict"], "runtime_error") << row;
    EXPECT_NE(row["message"].get<std::string>().find("malformed reply"), std::string::npos) << row;
  }
  for (const std::string& fixture : fixtures)
    for (const char* format : {"text", "json", "junit", "gradescope"}) {
      const std::string file = (dir_ / fs::path(fixture).filename()).string();
      JudgeRun report = run_judge({"run", "temperature", "--solution", file, "--format", format});
      EXPECT_EQ(report.status, 1) << fixture << " as " << format << ":\n" << report.out << report.err;
      EXPECT_NE(report.out.find("malformed reply"), std::string::npos) << fixture << " as " << format << ":\n"
                                                                       << report.out;
      if (std::string(format) == "json" || std::string(format) == "gradescope") {
        nlohmann::json parsed;
        EXPECT_NO_THROW(parsed = nlohmann::json::parse(report.out)) << fixture << " as " << format;
      }
    }
}

TEST_F(GradeTest, ALinkOutOfTheFolderIsRefusedAndEveryFileIsJudgedOnItsOwn) {
  add("alice.hpp", "solutions/temperature/reference.hpp");
  fs::create_symlink(fs::path(JUDGE_SOURCE_DIR) / "solutions/temperature/reference.hpp", dir_ / "linked.hpp");
  fs::create_symlink("alice.hpp", dir_ / "inside.hpp");  // a link within the folder is judged
  std::ofstream(dir_ / "borrower.hpp") << "#include \"alice.hpp\"\n";
  add("odd \"name\"\\ with\nlines.hpp", "solutions/temperature/reference.hpp");
  fs::path out = dir_ / "report";
  JudgeRun run = run_judge({"grade", "temperature", dir_.string(), "--out", out.string()});
  ASSERT_EQ(run.status, 0) << run.out << run.err;
  nlohmann::json summary = nlohmann::json::parse(read_file(out / "summary.json"));
  std::map<std::string, nlohmann::json> rows;
  for (const nlohmann::json& row : summary["submissions"]) rows[row["submission"]] = row;
  ASSERT_EQ(rows.size(), 5u) << summary.dump(2);
  EXPECT_EQ(rows["alice.hpp"]["verdict"], "accepted");
  EXPECT_EQ(rows["inside.hpp"]["verdict"], "accepted");
  EXPECT_EQ(rows["odd \"name\"\\ with\nlines.hpp"]["verdict"], "accepted") << "a file name is only a name";
  EXPECT_EQ(rows["linked.hpp"]["verdict"], "compile_error");
  EXPECT_EQ(rows["linked.hpp"]["message"],
            "linked.hpp is a symbolic link to a file outside the folder being graded; a submission must be a file of "
            "the folder, so it was not judged");
  EXPECT_EQ(rows["borrower.hpp"]["verdict"], "compile_error");
  EXPECT_NE(rows["borrower.hpp"]["message"].get<std::string>().find("fatal error: alice.hpp: No such file"),
            std::string::npos)
      << rows["borrower.hpp"].dump();
}

TEST_F(GradeTest, AnyFileNameIsGradedAndShownHarmlessly) {
  const std::vector<std::string> names = {"=HYPERLINK(\"https:example.com\",\"open\").hpp", "\x1b[31m\rred.hpp",
                                          std::string(240, 'n') + ".hpp", "\xff\xfe latin.hpp", "@SUM(A1).hpp"};
  for (const std::string& name : names) add(name, "solutions/temperature/reference.hpp");
  JudgeRun run = run_judge({"grade", "temperature", dir_.string()});
  ASSERT_EQ(run.status, 0) << run.out << run.err;
  EXPECT_EQ(run.out.find_first_of("\x1b\r"), std::string::npos) << "raw control characters reached the terminal";
  EXPECT_NE(run.out.find("\\x1b[31m\\x0dred.hpp: accepted"), std::string::npos) << run.out;
  std::string csv = read_file(dir_ / ".judge-grade" / "summary.csv");
  EXPECT_NE(csv.find("\"'=HYPERLINK("), std::string::npos) << csv;
  EXPECT_NE(csv.find("\r\n'@SUM(A1).hpp,accepted,"), std::string::npos) << csv;
  nlohmann::json summary = nlohmann::json::parse(read_file(dir_ / ".judge-grade" / "summary.json"));
  ASSERT_EQ(summary["submissions"].size(), names.size());
  for (const nlohmann::json& row : summary["submissions"]) EXPECT_EQ(row["verdict"], "accepted") << row.dump();
  std::size_t results = 0;
  for (const auto& entry : fs::directory_iterator(dir_ / ".judge-grade" / "results"))
    results += entry.is_regular_file();
  EXPECT_EQ(results, names.size());
  JudgeRun again = run_judge({"grade", "temperature", dir_.string()});
  EXPECT_EQ(again.status, 0) << again.err;
  EXPECT_NE(again.out.find("skipped 5 already graded"), std::string::npos) << again.out;
}

TEST_F(GradeTest, BadArgumentsExitTwo) {
  JudgeRun unknown = run_judge({"grade", "no_such_problem", dir_.string()});
  EXPECT_EQ(unknown.status, 2);
  EXPECT_EQ(unknown.err.rfind("judge: unknown problem 'no_such_problem'", 0), 0u) << unknown.err;
  JudgeRun missing = run_judge({"grade", "temperature", (dir_ / "nowhere").string()});
  EXPECT_EQ(missing.status, 2);
  // The path is shown relative to the working directory when it is below it.
  EXPECT_EQ(missing.err.rfind("judge: grade: ", 0), 0u) << missing.err;
  std::string tail = "BadArgumentsExitTwo/nowhere is not a directory\n";
  EXPECT_TRUE(missing.err.size() > tail.size() &&
              missing.err.compare(missing.err.size() - tail.size(), tail.size(), tail) == 0)
      << missing.err;
}

TEST(GradeCsv, QuotesCellsThatNeedIt) {
  GradeRow row;
  row.submission = "a,b.hpp";
  row.verdict = "wrong_answer";
  row.passed = 1;
  row.total = 2;
  row.seconds = 0.5;
  row.first_failing_case = "case";
  row.message = "said \"no\"\nthen stopped";
  EXPECT_EQ(grade_summary_csv({row}),
            "submission,verdict,passed,total,seconds,first_failing_case,message\r\n"
            "\"a,b.hpp\",wrong_answer,1,2,0.500,case,\"said \"\"no\"\"\nthen stopped\"\r\n");
}

// Cases run out of file order: after three time-outs the rest are not run,
// and a case early in the file (a sample) may be among them. The row names
// the case that timed out, not one that never ran.
TEST(GradeRow, NamesTheFirstCaseThatFailedWhenItRanNotOneNeverRun) {
  auto test = [](const std::string& name, Verdict verdict, bool not_run, const std::string& message) {
    TestResult result;
    result.name = name;
    result.verdict = verdict;
    result.not_run = not_run;
    result.message = message;
    return result;
  };
  ProblemResult result;
  result.verdict = Verdict::kTimeLimitExceeded;
  result.tests = {test("sample_one", Verdict::kTimeLimitExceeded, true, "not run: 3 other cases exceeded"),
                  test("small", Verdict::kAccepted, false, ""),
                  test("large", Verdict::kTimeLimitExceeded, false, "no reply after 2000 ms of CPU time"),
                  test("larger", Verdict::kTimeLimitExceeded, false, "no reply after 2000 ms of CPU time")};
  GradeRow row = row_from_result(result);
  EXPECT_EQ(row.first_failing_case, "large");
  EXPECT_EQ(row.message, "no reply after 2000 ms of CPU time");
  EXPECT_EQ(row.passed, 1u);
  EXPECT_EQ(row.total, 4u);

  // When nothing that ran failed, a case never run is still named.
  result.tests = {test("a", Verdict::kAccepted, false, ""), test("b", Verdict::kRuntimeError, true, "not run: ...")};
  EXPECT_EQ(row_from_result(result).first_failing_case, "b");
  // Among cases that ran, the first in file order.
  result.tests = {test("x", Verdict::kWrongAnswer, false, "x wrong"), test("y", Verdict::kWrongAnswer, false, "y")};
  EXPECT_EQ(row_from_result(result).first_failing_case, "x");
}

TEST(FindSubmissions, TakesSolutionFilesOnly) {
  fs::path dir = fs::temp_directory_path() / ("judge-find-submissions-" + std::to_string(getpid()));
  fs::create_directories(dir / "sub");
  for (const char* name : {"b.hpp", "a.cpp", "c.h", "notes.txt", ".hidden.hpp", "d.cc"})
    std::ofstream(dir / name) << "";
  std::ofstream(dir / "sub" / "e.hpp") << "";
  EXPECT_EQ(find_submissions(dir.string()), (std::vector<std::string>{"a.cpp", "b.hpp", "c.h", "d.cc"}));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace judge
