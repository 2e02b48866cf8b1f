// judge grade: a worker pool over a folder of submissions, a result file
// per submission, a summary at the end.
#include "grade.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "build.hpp"
#include "checks.hpp"
#include "fingerprint.hpp"
#include "judging.hpp"
#include "report.hpp"
#include "yaml_reader.hpp"

namespace judge {
namespace fs = std::filesystem;
namespace {
using nlohmann::json;
constexpr std::size_t kMessageLimit = 4000;  // characters of a message kept in a summary row
constexpr const char* kErrorVerdict = "error";

bool is_solution_name(const std::string& name) {
  static const char* const kExtensions[] = {".hpp", ".h", ".hh", ".hxx", ".cpp", ".cc", ".cxx"};
  if (name.empty() || name[0] == '.') return false;
  std::string extension = fs::path(name).extension().string();
  return std::find(std::begin(kExtensions), std::end(kExtensions), extension) != std::end(kExtensions);
}

// Writes `content` to `path` through a temporary file and a rename, so a
// reader (or a rerun after an interruption) sees the whole file or none.
void write_atomically(const std::string& path, const std::string& content) {
  static std::atomic<unsigned> counter{0};
  std::string temporary = fmt::format("{}.tmp-{}-{}", path, getpid(), counter++);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << content;
    out.flush();
    if (!out) throw JudgeFault{fmt::format("cannot write {}", display_path(temporary))};
  }
  std::error_code error;
  fs::rename(temporary, path, error);
  if (error) {
    fs::remove(temporary, error);
    throw JudgeFault{fmt::format("cannot write {}: {}", display_path(path), error.message())};
  }
}

Problem load_problem_for_grading(const Paths& paths, const std::string& slug) {
  std::string dir = (fs::path(paths.problems_dir) / slug).string();
  if (slug.empty() || slug.find('/') != std::string::npos || !fs::is_regular_file(fs::path(dir) / "problem.yaml")) {
    std::string known;
    for (const Problem& problem : load_all_problems(paths.problems_dir)) known += (known.empty() ? "" : ", ") + problem.slug;
    throw JudgeFault{fmt::format("unknown problem '{}'; the problems are: {}", slug, known)};
  }
  return load_problem(dir);
}

std::string capped(const std::string& text) {
  return cap_characters(text, kMessageLimit, "\n[... cut]");
}

json row_json(const GradeRow& row) {
  return {{"submission", row.submission}, {"verdict", row.verdict},
          {"passed", row.passed},         {"total", row.total},
          {"seconds", std::round(row.seconds * 1000) / 1000},
          {"first_failing_case", row.first_failing_case},
          {"message", row.message},       {"key", row.key}};
}

std::optional<GradeRow> row_from_json(const json& data) {
  try {
    GradeRow row;
    row.submission = data.at("submission");
    row.verdict = data.at("verdict");
    row.passed = data.at("passed");
    row.total = data.at("total");
    row.seconds = data.at("seconds");
    row.first_failing_case = data.at("first_failing_case");
    row.message = data.at("message");
    row.key = data.at("key");
    return row;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

GradeRow row_from_result(const ProblemResult& result) {
  GradeRow row;
  row.verdict = verdict_name(result.verdict);
  row.total = result.tests.size();
  for (const TestResult& test : result.tests) {
    row.passed += test.verdict == Verdict::kAccepted;
    if (row.first_failing_case.empty() && test.verdict != Verdict::kAccepted) {
      row.first_failing_case = test.name;
      row.message = capped(test.message);
    }
  }
  if (result.verdict == Verdict::kCompileError) {
    // The first error, for a spreadsheet cell; the whole output is in the result file.
    std::string first = result.message.substr(0, result.message.find('\n'));
    for (std::size_t start = 0; start < result.message.size();) {
      std::size_t end = std::min(result.message.find('\n', start), result.message.size());
      std::string line = result.message.substr(start, end - start);
      if (line.find(": error: ") != std::string::npos) {
        first = line;
        break;
      }
      start = end + 1;
    }
    row.message = capped(first);
  }
  return row;
}

// What a submission's result depends on, besides the judge itself: a
// stored result with another key is stale.
std::string submission_key(const Paths& paths, const Problem& problem, const std::string& file, bool sanitize) {
  Fingerprint key;
  key.add("grade-v1");
  key.add(problem.slug);
  key.add_file(file);
  key.add_tree(problem.dir);
  key.add_file(reference_solution_path(paths, problem));
  key.add_file((fs::path(paths.adapters_dir) / (problem.slug + ".cpp")).string());
  key.add(sanitize ? "sanitize" : "plain");
  return key.hex();
}

// Progress on stdout: a bar redrawn in place on a terminal, else a line per
// submission.
class GradeProgress {
 public:
  GradeProgress(std::size_t total, bool live, bool colour) : total_(total), live_(live), colour_(colour) {
    if (live_ && total_ > 0) fmt::print("[{}] 0/{}", std::string(kWidth, '.'), total_);
    std::fflush(stdout);
  }

  void done(const GradeRow& row) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++done_;
    std::string verdict = paint(row.verdict);
    std::string detail = row.verdict == kErrorVerdict || row.total == 0
                             ? ""
                             : fmt::format(" ({}/{} cases)", row.passed, row.total);
    if (!live_) {
      fmt::print("[{}/{}] {}: {}{} {:.1f} s\n", done_, total_, row.submission, verdict, detail, row.seconds);
      std::fflush(stdout);
      return;
    }
    std::size_t filled = total_ ? kWidth * done_ / total_ : kWidth;
    // The finished submission's line scrolls up; the bar stays at the bottom.
    fmt::print("\r\033[K{}: {}{}\n[{}{}] {}/{}", row.submission, verdict, detail, std::string(filled, '#'),
               std::string(kWidth - filled, '.'), done_, total_);
    std::fflush(stdout);
  }

  void finish() {
    if (live_ && done_ > 0) fmt::print("\n");
  }

 private:
  std::string paint(const std::string& verdict) const {
    if (!colour_) return verdict;
    const char* code = verdict == "accepted" ? "32" : verdict == kErrorVerdict ? "35" : "31";
    return fmt::format("\033[{}m{}\033[0m", code, verdict);
  }
  static constexpr std::size_t kWidth = 30;
  std::mutex mutex_;
  std::size_t total_, done_ = 0;
  bool live_, colour_;
};
}  // namespace

std::vector<std::string> find_submissions(const std::string& dir) {
  std::error_code error;
  if (!fs::is_directory(dir, error)) throw JudgeFault{fmt::format("grade: {} is not a directory", display_path(dir))};
  std::vector<std::string> names;
  for (auto it = fs::directory_iterator(dir, error); !error && it != fs::directory_iterator(); it.increment(error))
    if (it->is_regular_file() && is_solution_name(it->path().filename().string()))
      names.push_back(it->path().filename().string());
  if (error) throw JudgeFault{fmt::format("grade: cannot read {}: {}", display_path(dir), error.message())};
  std::sort(names.begin(), names.end());
  return names;
}

std::string grade_summary_csv(const std::vector<GradeRow>& rows) {
  auto cell = [](const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
  };
  std::string csv = "submission,verdict,passed,total,seconds,first_failing_case,message\r\n";
  for (const GradeRow& row : rows)
    csv += fmt::format("{},{},{},{},{:.3f},{},{}\r\n", cell(row.submission), cell(row.verdict), row.passed, row.total,
                       row.seconds, cell(row.first_failing_case), cell(row.message));
  return csv;
}

int command_grade(const Paths& paths, const GradeOptions& options) {
  Problem problem = load_problem_for_grading(paths, options.slug);
  std::vector<std::string> submissions = find_submissions(options.dir);
  fs::path report_dir = options.report_dir.empty() ? fs::path(options.dir) / ".judge-grade" : fs::path(options.report_dir);
  fs::path results_dir = report_dir / "results";
  std::error_code error;
  fs::create_directories(results_dir, error);
  if (error) throw JudgeFault{fmt::format("grade: cannot create {}: {}", display_path(results_dir.string()), error.message())};
  // Temporary files of an interrupted run.
  for (auto it = fs::directory_iterator(results_dir, error); !error && it != fs::directory_iterator(); it.increment(error))
    if (it->path().filename().string().find(".tmp-") != std::string::npos) fs::remove(it->path(), error);

  // Rows already graded with the same key are kept; the rest are queued.
  std::vector<GradeRow> rows(submissions.size());
  std::vector<std::size_t> queue;
  for (std::size_t i = 0; i < submissions.size(); ++i) {
    std::string file = (fs::path(options.dir) / submissions[i]).string();
    std::string key = submission_key(paths, problem, file, options.sanitize);
    std::ifstream stored(results_dir / (submissions[i] + ".json"));
    std::optional<GradeRow> row;
    if (stored) {
      json data = json::parse(stored, nullptr, false);
      if (!data.is_discarded()) row = row_from_json(data);
    }
    if (row && row->key == key && row->verdict != kErrorVerdict) {
      rows[i] = *row;
    } else {
      rows[i].submission = submissions[i];
      rows[i].key = key;
      queue.push_back(i);
    }
  }
  fmt::print("grading {} submission(s) of {} in {}\n", submissions.size(), problem.slug, display_path(options.dir));
  if (queue.size() < submissions.size())
    fmt::print("skipped {} already graded (unchanged since {} was written)\n", submissions.size() - queue.size(),
               display_path(results_dir.string()));
  std::fflush(stdout);

  if (!queue.empty()) {
    // Build the reference once, before the workers all want it; a broken
    // reference stops the whole run (exit 2), not each submission.
    BuildOutcome reference =
        build_runner(paths, problem, reference_solution_path(paths, problem), "reference solution");
    if (!reference.ok)
      throw JudgeFault{fmt::format("{}: the reference solution does not compile:\n{}", problem.slug, reference.diagnostics)};
  }

  unsigned workers = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  workers = static_cast<unsigned>(std::min<std::size_t>(workers, queue.size()));
  GradeProgress progress(queue.size(), wants_live_progress(stdout), wants_colour(stdout));
  std::atomic<std::size_t> next{0};
  std::mutex write_error_mutex;
  std::string write_error;
  auto worker = [&] {
    for (std::size_t taken; (taken = next++) < queue.size();) {
      GradeRow& row = rows[queue[taken]];
      JudgeRequest request;
      request.solution_file = (fs::path(options.dir) / row.submission).string();
      request.display_name = row.submission;
      request.hints = false;  // much faster, and a gradebook has no use for them
      request.sanitize = options.sanitize;
      if (workers > 1) request.parallel_runners = 1;  // the submissions share the cores already
      auto start = std::chrono::steady_clock::now();
      GradeRow judged;
      json detail;  // the whole result, kept beside the row
      try {
        ProblemResult result = judge_solution(paths, problem, request);
        judged = row_from_result(result);
        detail = json::parse(result_json(result));
      } catch (const JudgeFault& fault) {
        judged.verdict = kErrorVerdict;
        judged.message = capped("the judge could not judge it: " + fault.message);
      } catch (const SpecError& spec_error) {
        judged.verdict = kErrorVerdict;
        judged.message = capped("the judge could not judge it: " + spec_error.message);
      } catch (const std::exception& exception) {
        judged.verdict = kErrorVerdict;
        judged.message = capped(std::string("the judge could not judge it: internal error: ") + exception.what());
      }
      judged.submission = row.submission;
      judged.key = row.key;
      judged.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      row = judged;
      try {
        json stored = row_json(row);
        if (!detail.is_null()) stored["result"] = detail;
        write_atomically((results_dir / (row.submission + ".json")).string(), stored.dump(2) + "\n");
      } catch (const JudgeFault& fault) {
        std::lock_guard<std::mutex> lock(write_error_mutex);
        write_error = fault.message;
      }
      progress.done(row);
    }
  };
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < workers; ++i) threads.emplace_back(worker);
  for (std::thread& thread : threads) thread.join();
  progress.finish();
  if (!write_error.empty()) throw JudgeFault{"grade: " + write_error};

  json summary_rows = json::array();
  std::map<std::string, std::size_t> counts;
  for (const GradeRow& row : rows) {
    summary_rows.push_back(row_json(row));
    ++counts[row.verdict];
  }
  std::string csv_file = (report_dir / "summary.csv").string(), json_file = (report_dir / "summary.json").string();
  write_atomically(csv_file, grade_summary_csv(rows));
  write_atomically(json_file, json{{"problem", problem.slug}, {"submissions", summary_rows}}.dump(2) + "\n");

  std::string tally;
  for (const auto& [verdict, count] : counts) tally += fmt::format("{}{} {}", tally.empty() ? "" : ", ", count, verdict);
  fmt::print("{} submission(s): {}\nsummary: {} and {}\n", rows.size(), tally.empty() ? "none" : tally,
             display_path(csv_file), display_path(json_file));
  std::size_t errors = counts.count(kErrorVerdict) ? counts[kErrorVerdict] : 0;
  if (errors) {
    fmt::print(stderr, "judge: {} submission(s) could not be judged (verdict \"error\"); a rerun tries them again\n",
               errors);
    return 2;
  }
  return 0;
}

}  // namespace judge
