// judge grade: a worker pool over a folder of submissions, a result file
// per submission, a summary at the end.
#include "course/grade.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>

#include "compile/build_runner.hpp"
#include "course/grade_report.hpp"
#include "judging/judging.hpp"
#include "judging/problem_catalog.hpp"
#include "judging/shrink.hpp"
#include "package/layout.hpp"
#include "package/result_codec.hpp"
#include "sandbox/hidden_paths.hpp"
#include "sandbox/sandbox_policy.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"
#include "util/fingerprint.hpp"
#include "util/terminal.hpp"
#include "util/text.hpp"
#include "util/worker_pool.hpp"

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

std::string capped(const std::string& text) { return cap_characters(text, kMessageLimit, "\n[... cut]"); }

}  // namespace

json grade_row_json(const GradeRow& row) {
  return {{"submission", row.submission},
          {"verdict", row.verdict},
          {"passed", row.passed},
          {"total", row.total},
          {"seconds", std::round(row.seconds * 1000) / 1000},
          {"first_failing_case", row.first_failing_case},
          {"message", row.message},
          {"key", row.key}};
}

std::optional<GradeRow> grade_row_from_json(const json& data) {
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

unsigned shard_of_submission(const std::string& name, unsigned count) {
  Fingerprint hash;
  hash.add(name);
  return static_cast<unsigned>(std::stoull(hash.hex().substr(0, 15), nullptr, 16) % count);
}

void parse_shard(const std::string& text, GradeOptions* options) {
  unsigned index = 0, count = 0;
  char slash = 0, rest = 0;
  if (std::sscanf(text.c_str(), "%u%c%u%c", &index, &slash, &count, &rest) != 3 || slash != '/' || index < 1 ||
      count < 1 || index > count || count > 10000)
    throw JudgeFault{fmt::format("grade: --shard {}: expected K/N with 1 <= K <= N (e.g. 3/8)", text)};
  options->shard_index = index;
  options->shard_count = count;
}

GradeRow row_from_result(const ProblemResult& result) {
  GradeRow row;
  row.verdict = verdict_name(result.verdict);
  row.total = result.tests.size();
  // The first case that failed when it ran; one that was never run only
  // when nothing ran and failed (the cases run out of order, so a case
  // early in the file may not have run after later ones timed out).
  const TestResult* first_failure = nullptr;
  for (const TestResult& test : result.tests) {
    row.passed += test.verdict == Verdict::kAccepted;
    if (test.verdict != Verdict::kAccepted && (!first_failure || (first_failure->not_run && !test.not_run)))
      first_failure = &test;
  }
  if (first_failure) {
    row.first_failing_case = first_failure->name;
    row.message = capped(first_failure->message);
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

namespace {
// What decides a submission's row besides its own bytes: the problem's
// files, the reference, the adapter and its learner bindings, the harness
// and the judge itself. A stored row with another key is stale.
std::string judge_key(const Paths& paths, const Problem& problem, const GradeOptions& options) {
  const Package& package = problem.package;
  Fingerprint key;
  key.add("grade-v2");
  key.add(problem.slug);
  key.add_tree(package.problem_dir);
  key.add_file(package.reference);
  key.add_file(package.adapter);
  key.add_file(package.learner_bindings);
  key.add_tree(paths.harness_include);
  key.add_file_stamp(paths.harness_library);
  key.add_file_stamp("/proc/self/exe");  // a rebuilt judge may judge differently
  key.add(fs::read_symlink("/proc/self/exe").string());
  key.add(options.sanitize ? "sanitize" : "plain");
  if (options.shrink) key.add("shrink");
  if (!options.stop_after_timeouts) key.add("every case");
  return key.hex();
}

// Why a submission is not judged at all: a symbolic link whose target lies
// outside the folder (a classmate's file elsewhere, the reference); empty
// when it is judged.
std::string refusal_of(const std::string& dir, const std::string& name) {
  fs::path path = fs::path(dir) / name;
  std::error_code error;
  if (!fs::is_symlink(path, error)) return "";
  fs::path target = fs::weakly_canonical(path, error);
  fs::path folder = fs::weakly_canonical(dir, error);
  fs::path inside = target.lexically_relative(folder);
  if (!error && !inside.empty() && *inside.begin() != ".." && inside != ".") return "";
  return fmt::format(
      "{} is a symbolic link to a file outside the folder being graded; a submission must be a file "
      "of the folder, so it was not judged",
      name);
}

// The key of one submission's row: its bytes (read safely: a FIFO or a
// device is never read) and the judge's key.
std::string submission_key(const std::string& judge, const std::string& file) {
  ReadRefusal refusal = ReadRefusal::kNone;
  std::optional<std::string> content = read_regular_file(file, kMaxSolutionBytes, &refusal);
  Fingerprint key;
  key.add(judge);
  key.add(content ? *content : fmt::format("\x01unreadable:{}", static_cast<int>(refusal)));
  return key.hex();
}

// Progress on stdout: a bar redrawn in place on a terminal, else a line per
// submission.
class GradeProgress {
 public:
  GradeProgress(std::size_t total, bool live, bool colour) : total_(total), live_(stdout, live), colour_(colour) {
    if (total_ > 0) live_.show(fmt::format("[{}] 0/{}", std::string(kWidth, '.'), total_));
  }

  void done(const GradeRow& row) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++done_;
    std::string verdict = paint(row.verdict);
    std::string detail =
        row.verdict == kErrorVerdict || row.total == 0 ? "" : fmt::format(" ({}/{} cases)", row.passed, row.total);
    const std::string name = terminal_safe_line(row.submission);  // any name the file system allows, on one line
    if (!live_.enabled()) {
      fmt::print("[{}/{}] {}: {}{} {:.1f} s\n", done_, total_, name, verdict, detail, row.seconds);
      std::fflush(stdout);
      return;
    }
    std::size_t filled = total_ ? kWidth * done_ / total_ : kWidth;
    // The finished submission's line scrolls up; the bar stays at the bottom.
    live_.clear();
    fmt::print("{}: {}{}\n", name, verdict, detail);
    live_.show(fmt::format("[{}{}] {}/{}", std::string(filled, '#'), std::string(kWidth - filled, '.'), done_, total_));
  }

  void finish() {
    if (live_.enabled() && done_ > 0) fmt::print("\n");
  }

 private:
  std::string paint(const std::string& verdict) const {
    Tone tone = verdict == "accepted" ? Tone::kPass : verdict == kErrorVerdict ? Tone::kError : Tone::kFail;
    return judge::paint(colour_, tone, verdict);
  }
  static constexpr std::size_t kWidth = 30;
  std::mutex mutex_;
  std::size_t total_, done_ = 0;
  LiveLine live_;
  bool colour_;
};
}  // namespace

std::vector<std::string> find_submissions(const std::string& dir) {
  std::error_code error;
  if (!fs::is_directory(dir, error)) throw JudgeFault{fmt::format("grade: {} is not a directory", display_path(dir))};
  std::vector<std::string> names;
  // Regular files, and symbolic links whatever they point to: a link is
  // refused or judged (refusal_of), never silently skipped.
  for (auto it = fs::directory_iterator(dir, error); !error && it != fs::directory_iterator(); it.increment(error)) {
    std::error_code type_error;
    bool candidate = it->is_symlink(type_error) || it->is_regular_file(type_error);
    if (candidate && is_solution_name(it->path().filename().string())) names.push_back(it->path().filename().string());
  }
  if (error) throw JudgeFault{fmt::format("grade: cannot read {}: {}", display_path(dir), error.message())};
  std::sort(names.begin(), names.end());
  return names;
}

std::string result_file_name(const std::string& submission) {
  bool plain = submission.size() <= 200 &&
               submission.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-+") ==
                   std::string::npos;
  if (plain) return submission + ".json";
  std::string kept;
  for (char c : submission.substr(0, 100))
    kept += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' ? c : '_';
  Fingerprint name;
  name.add(submission);
  return fmt::format("{}-{}.json", kept, name.hex().substr(0, 16));
}

std::string grade_summary_csv(const std::vector<GradeRow>& rows) {
  // RFC 4180 quoting, and the OWASP rule against formula injection: a cell
  // that starts with = + - @, a tab or a carriage return gets a leading
  // apostrophe, so a spreadsheet shows it as text instead of evaluating it.
  auto cell = [](const std::string& raw) {
    std::string text =
        !raw.empty() && std::string_view("=+-@\t\r").find(raw[0]) != std::string_view::npos ? "'" + raw : raw;
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

namespace {
// A submission the judge will not judge (refusal_of), as a row of its own.
struct Refused {
  std::string message;
};

// The stored row of every submission whose file this judge sealed and
// whose key still matches; the others are queued. A file that is there
// but not trusted is noted in *distrusted, "NAME (why)".
std::vector<std::size_t> queue_ungraded(const Paths& paths, const Problem& problem, const GradeOptions& options,
                                        const GradeReport& report, std::vector<GradeRow>* rows,
                                        std::vector<std::string>* distrusted) {
  std::vector<std::size_t> queue;
  const std::string judge = judge_key(paths, problem, options);
  for (std::size_t i = 0; i < rows->size(); ++i) {
    GradeRow& row = (*rows)[i];
    std::string key = submission_key(judge, (fs::path(options.dir) / row.submission).string());
    StoredRow stored = report.read_row(row.submission);
    if (!stored.distrust.empty())
      distrusted->push_back(fmt::format("{} ({})", terminal_safe_line(row.submission), stored.distrust));
    if (stored.row && stored.row->key == key && stored.row->verdict != kErrorVerdict) {
      row = *stored.row;
    } else {
      row.key = key;
      queue.push_back(i);
    }
  }
  return queue;
}

// One line for the stored results not trusted (they are judged again).
void say_distrusted(const std::vector<std::string>& distrusted) {
  if (distrusted.empty()) return;
  constexpr std::size_t kNamed = 5;
  std::vector<std::string> named(distrusted.begin(), distrusted.begin() + std::min(kNamed, distrusted.size()));
  std::string more = distrusted.size() > kNamed ? fmt::format(", and {} more", distrusted.size() - kNamed) : "";
  fmt::print("not trusting {} stored result(s), judged again: {}{}\n", distrusted.size(), fmt::join(named, ", "), more);
}

// Judges one submission into its row (the judge's own failures included)
// and the whole result beside it.
GradeRow grade_one(const Paths& paths, const Problem& problem, const GradeOptions& options, const GradeRow& queued,
                   bool share_cores, json* detail) {
  JudgeRequest request;
  request.solution_file = (fs::path(options.dir) / queued.submission).string();
  request.display_name = queued.submission;
  request.hints = false;  // much faster, and a gradebook has no use for them
  request.sanitize = options.sanitize;
  // Off unless asked: a second per failing submission, for a gradebook.
  request.shrink_budget_ms = options.shrink ? kDefaultShrinkBudgetMs : 0;
  if (share_cores) request.parallel_runners = 1;  // the submissions share the cores already
  request.every_case = !options.stop_after_timeouts;
  auto start = std::chrono::steady_clock::now();
  GradeRow row;
  try {
    std::string refusal = refusal_of(options.dir, queued.submission);
    if (!refusal.empty()) throw Refused{refusal};
    ProblemResult result = judge_solution(paths, problem, request);
    row = row_from_result(result);
    *detail = result_to_json(result, ResultForm::kPublic);
  } catch (const Refused& refused) {
    row.verdict = verdict_name(Verdict::kCompileError);
    row.message = refused.message;
  } catch (const JudgeFault& fault) {
    row.verdict = kErrorVerdict;
    row.message = capped("the judge could not judge it: " + fault.message);
  } catch (const SpecError& spec_error) {
    row.verdict = kErrorVerdict;
    row.message = capped("the judge could not judge it: " + spec_error.message);
  } catch (const std::exception& exception) {
    row.verdict = kErrorVerdict;
    row.message = capped(std::string("the judge could not judge it: internal error: ") + exception.what());
  }
  row.submission = queued.submission;
  row.key = queued.key;
  row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return row;
}

// The report: --out as given, else DIR/.judge-grade (and shard-K-of-N
// below it for a shard), each directory below what the instructor named a
// real one.
GradeReport open_report(const Paths& paths, const GradeOptions& options) {
  std::string base = options.report_dir.empty() ? options.dir : options.report_dir;
  std::vector<std::string> below;
  if (options.report_dir.empty()) below.push_back(".judge-grade");
  // Shards sharing a folder (on a shared file system) each keep their own report.
  if (options.report_dir.empty() && options.shard_count > 0)
    below.push_back(fmt::format("shard-{}-of-{}", options.shard_index, options.shard_count));
  GradeSeal seal = GradeSeal::load(paths);
  try {
    return GradeReport::for_writing(base, below, std::move(seal));
  } catch (const JudgeFault& fault) {
    throw JudgeFault{
        fmt::format("grade: {}; the report goes only into directories of its own (remove it, or choose "
                    "another report directory with --out)",
                    fault.message)};
  }
}
}  // namespace

std::size_t write_grade_summary(const std::string& slug, const GradeReport& report, const std::vector<GradeRow>& rows,
                                const std::optional<ShardOfFolder>& shard) {
  json summary_rows = json::array();
  std::map<std::string, std::size_t> counts;
  for (const GradeRow& row : rows) {
    summary_rows.push_back(grade_row_json(row));
    ++counts[row.verdict];
  }
  json summary = with_schema_version({{"problem", slug}, {"submissions", summary_rows}});
  if (shard)
    summary["shard"] = {{"index", shard->index}, {"count", shard->count}, {"folder_total", shard->folder_total}};
  auto [csv_file, json_file] = report.write_summary(grade_summary_csv(rows), std::move(summary));
  std::vector<std::string> tally;
  for (const auto& [verdict, count] : counts) tally.push_back(fmt::format("{} {}", count, verdict));
  fmt::print("{} submission(s): {}\nsummary: {} and {}\n", rows.size(),
             tally.empty() ? "none" : fmt::format("{}", fmt::join(tally, ", ")),
             terminal_safe_line(display_path(csv_file)), terminal_safe_line(display_path(json_file)));
  return counts.count(kErrorVerdict) ? counts[kErrorVerdict] : 0;
}

int grade_folder(const Paths& paths, const GradeOptions& options) {
  std::string gave_up = check_sandbox_for("grade", /*others_code=*/true, options.trust_submissions);
  if (!gave_up.empty()) fmt::print(stderr, "judge: grade: {}\n", gave_up);
  // The submissions, and the report of their grades, are no submission's to read.
  hide_from_sandboxes(options.dir);
  if (!options.report_dir.empty()) hide_from_sandboxes(options.report_dir);
  Problem problem = ProblemCatalog(paths).load(options.slug);
  std::vector<GradeRow> rows;
  std::vector<std::string> names = find_submissions(options.dir);
  std::optional<ShardOfFolder> shard;
  if (options.shard_count > 0) shard = ShardOfFolder{options.shard_index, options.shard_count, names.size()};
  for (const std::string& name : names) {
    if (shard && shard_of_submission(name, shard->count) != shard->index - 1) continue;
    rows.emplace_back();
    rows.back().submission = name;
  }
  GradeReport report = open_report(paths, options);
  std::vector<std::string> distrusted;
  std::vector<std::size_t> queue = queue_ungraded(paths, problem, options, report, &rows, &distrusted);
  fmt::print("grading {} submission(s) of {} in {}{}\n", rows.size(), problem.slug,
             terminal_safe_line(display_path(options.dir)),
             shard ? fmt::format(" (shard {}/{} of {})", shard->index, shard->count, shard->folder_total) : "");
  if (queue.size() < rows.size())
    fmt::print("skipped {} already graded (unchanged since {} was written)\n", rows.size() - queue.size(),
               terminal_safe_line(display_path(report.results_path())));
  say_distrusted(distrusted);
  std::fflush(stdout);
  if (!queue.empty()) {
    // Build the reference once, before the workers all want it; a broken
    // reference stops the whole run (exit 2), not each submission.
    BuildOutcome reference = build_runner(paths, problem, problem.package.reference, "reference solution");
    if (!reference.ok)
      throw JudgeFault{
          fmt::format("{}: the reference solution does not compile:\n{}", problem.slug, reference.diagnostics)};
  }
  std::size_t workers = std::min<std::size_t>(options.jobs ? options.jobs : hardware_workers(), queue.size());
  GradeProgress progress(queue.size(), wants_live_progress(stdout), wants_colour(stdout));
  std::mutex write_error_mutex;
  std::string write_error;
  for_each_parallel(queue.size(), workers, [&](std::size_t taken) {
    GradeRow& row = rows[queue[taken]];
    json detail;
    row = grade_one(paths, problem, options, row, workers > 1, &detail);
    try {
      report.write_row(row, detail);
    } catch (const JudgeFault& fault) {
      std::lock_guard<std::mutex> lock(write_error_mutex);
      write_error = fault.message;
    }
    progress.done(row);
  });
  progress.finish();
  if (!write_error.empty()) throw JudgeFault{"grade: " + write_error};
  if (std::size_t errors = write_grade_summary(problem.slug, report, rows, shard)) {
    fmt::print(stderr, "judge: {} submission(s) could not be judged (verdict \"error\"); a rerun tries them again\n",
               errors);
    return 2;
  }
  return 0;
}

}  // namespace judge
