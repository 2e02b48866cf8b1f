// Merging shard reports of `judge grade` (course/grade_merge.hpp).
#include "course/grade_merge.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>

#include "course/grade.hpp"
#include "course/grade_report.hpp"
#include "course/grade_seal.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"
#include "util/text.hpp"

namespace judge {
namespace fs = std::filesystem;
namespace {
using nlohmann::json;

struct Report {
  std::string dir;
  std::string problem;
  std::vector<GradeRow> rows;
  std::optional<ShardOfFolder> shard;
  std::optional<GradeReport> stored;  // where its result files are read from
};

// Why a merge refuses a file, with what to do about another key.
std::string merge_refusal(const GradeSeal& seal, const std::string& file, const std::string& why) {
  return fmt::format(
      "grade --merge: refusing {}: {} (a merge takes only what this judge's key, {}, sealed; shards judged where "
      "the cache is not shared need one key file: JUDGE_GRADE_KEY_FILE)",
      terminal_safe_line(display_path(file)), why, seal.key_file());
}

Report read_report(const std::string& dir, const GradeSeal& seal) {
  Report report;
  report.dir = dir;
  try {
    report.stored = GradeReport::for_reading(dir, seal);
  } catch (const JudgeFault& fault) {
    throw JudgeFault{"grade --merge: " + fault.message};
  }
  const std::string file = (fs::path(dir) / "summary.json").string();
  std::string distrust;
  std::optional<json> data = report.stored->read_summary(&distrust);
  if (!data) throw JudgeFault{merge_refusal(seal, file, distrust)};
  try {
    report.problem = data->at("problem");
    for (const json& entry : data->at("submissions")) {
      std::optional<GradeRow> row = grade_row_from_json(entry);
      if (!row) throw std::runtime_error("a row without its keys");
      report.rows.push_back(*row);
    }
    if (data->contains("shard")) {
      const json& shard = data->at("shard");
      report.shard = ShardOfFolder{shard.at("index"), shard.at("count"), shard.at("folder_total")};
    }
  } catch (const std::exception& error) {
    throw JudgeFault{
        fmt::format("grade --merge: {} is not a summary judge grade wrote ({})", display_path(file), error.what())};
  }
  return report;
}

// The shards' agreement: one problem, one split, each share once, and as
// many rows as the folder had.
void check_whole(const std::vector<Report>& reports) {
  const Report& first = reports.front();
  for (const Report& report : reports)
    if (report.problem != first.problem)
      throw JudgeFault{fmt::format("grade --merge: {} grades {} but {} grades {}", display_path(first.dir),
                                   first.problem, display_path(report.dir), report.problem)};
  bool sharded = std::any_of(reports.begin(), reports.end(), [](const Report& r) { return r.shard.has_value(); });
  if (!sharded) return;
  std::map<unsigned, std::string> seen;  // share -> its report
  std::size_t rows = 0;
  for (const Report& report : reports) {
    // The first report is checked first: past it, first.shard is there.
    if (!report.shard || report.shard->count != first.shard->count ||
        report.shard->folder_total != first.shard->folder_total)
      throw JudgeFault{
          fmt::format("grade --merge: {} is not a shard of the same split as the others (same --shard N, same folder)",
                      display_path(report.dir))};
    auto [at, added] = seen.emplace(report.shard->index, report.dir);
    if (!added)
      throw JudgeFault{fmt::format("grade --merge: shard {}/{} given twice: {} and {}", report.shard->index,
                                   report.shard->count, display_path(at->second), display_path(report.dir))};
    rows += report.rows.size();
  }
  const ShardOfFolder& split = *first.shard;
  std::vector<std::string> missing;
  for (unsigned index = 1; index <= split.count; ++index)
    if (!seen.count(index)) missing.push_back(fmt::format("{}/{}", index, split.count));
  if (!missing.empty()) throw JudgeFault{fmt::format("grade --merge: missing shard(s) {}", fmt::join(missing, ", "))};
  if (rows != split.folder_total)
    throw JudgeFault{
        fmt::format("grade --merge: the shards hold {} submission(s) but the folder had {}", rows, split.folder_total)};
}

// Each row's result file, checked against the row before anything is
// written: sealed by this judge and holding the row summary.json has. A
// row whose file is missing has none (a rerun of grade judges it again).
std::vector<std::pair<std::string, json>> trusted_results(const std::vector<Report>& reports, const GradeSeal& seal) {
  std::vector<std::pair<std::string, json>> results;
  for (const Report& report : reports)
    for (const GradeRow& row : report.rows) {
      StoredRow stored = report.stored->read_row(row.submission);
      const std::string file = (fs::path(report.stored->results_path()) / result_file_name(row.submission)).string();
      if (!stored.distrust.empty()) throw JudgeFault{merge_refusal(seal, file, stored.distrust)};
      if (!stored.row) continue;
      if (stored.row->key != row.key || stored.row->verdict != row.verdict)
        throw JudgeFault{merge_refusal(seal, file, "it does not hold the row its summary.json has")};
      results.emplace_back(row.submission, std::move(stored.data));
    }
  return results;
}
}  // namespace

int merge_grade_reports(const Paths& paths, const GradeMergeOptions& options) {
  if (options.report_dirs.empty()) throw JudgeFault{"grade --merge: name the shards' report directories"};
  if (options.out.empty()) throw JudgeFault{"grade --merge: --out DIR is needed (where the merged report goes)"};
  GradeSeal seal = GradeSeal::load(paths);
  std::vector<Report> reports;
  for (const std::string& dir : options.report_dirs) reports.push_back(read_report(dir, seal));
  check_whole(reports);
  std::vector<GradeRow> rows;
  std::map<std::string, std::string> owner;  // submission -> report
  for (const Report& report : reports)
    for (const GradeRow& row : report.rows) {
      auto [at, added] = owner.emplace(row.submission, report.dir);
      if (!added)
        throw JudgeFault{fmt::format("grade --merge: {} is in both {} and {}", terminal_safe_line(row.submission),
                                     display_path(at->second), display_path(report.dir))};
      rows.push_back(row);
    }
  // The order find_submissions gives a single run.
  std::sort(rows.begin(), rows.end(), [](const GradeRow& a, const GradeRow& b) { return a.submission < b.submission; });
  std::vector<std::pair<std::string, json>> results = trusted_results(reports, seal);
  GradeReport merged = GradeReport::for_writing(options.out, {}, seal);
  for (auto& [submission, data] : results) merged.write_row_data(submission, std::move(data));
  fmt::print("merged {} report(s) of {}\n", reports.size(), reports.front().problem);
  if (std::size_t errors = write_grade_summary(reports.front().problem, merged, rows, std::nullopt)) {
    fmt::print(stderr, "judge: {} submission(s) could not be judged (verdict \"error\"); rerun their shards\n", errors);
    return 2;
  }
  return 0;
}

}  // namespace judge
