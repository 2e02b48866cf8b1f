// Merging shard reports of `judge grade` (cli/grade_merge.hpp).
#include "cli/grade_merge.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>

#include "cli/grade.hpp"
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
};

Report read_report(const std::string& dir) {
  const std::string file = (fs::path(dir) / "summary.json").string();
  std::optional<std::string> text = read_file(file);
  if (!text) throw JudgeFault{fmt::format("grade --merge: no {}: did that run finish?", display_path(file))};
  json data = json::parse(*text, nullptr, false);
  Report report;
  report.dir = dir;
  try {
    report.problem = data.at("problem");
    for (const json& entry : data.at("submissions")) {
      std::optional<GradeRow> row = grade_row_from_json(entry);
      if (!row) throw std::runtime_error("a row without its keys");
      report.rows.push_back(*row);
    }
    if (data.contains("shard")) {
      const json& shard = data.at("shard");
      report.shard = ShardOfFolder{shard.at("index"), shard.at("count"), shard.at("folder_total")};
    }
  } catch (const std::exception& error) {
    throw JudgeFault{fmt::format("grade --merge: {} is not a summary judge grade wrote ({})", display_path(file),
                                 data.is_discarded() ? "not JSON" : error.what())};
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
      throw JudgeFault{fmt::format(
          "grade --merge: {} is not a shard of the same split as the others (same --shard N, same folder)",
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
  if (!missing.empty())
    throw JudgeFault{fmt::format("grade --merge: missing shard(s) {}", fmt::join(missing, ", "))};
  if (rows != split.folder_total)
    throw JudgeFault{fmt::format("grade --merge: the shards hold {} submission(s) but the folder had {}", rows,
                                 split.folder_total)};
}

// Copies each report's results/ files into DIR/results (a rerun of
// `judge grade --out DIR` then finds them all).
void copy_results(const std::vector<Report>& reports, const fs::path& results) {
  std::error_code error;
  fs::create_directories(results, error);
  if (error)
    throw JudgeFault{fmt::format("grade --merge: cannot create {}: {}", display_path(results.string()), error.message())};
  for (const Report& report : reports)
    for (const GradeRow& row : report.rows) {
      const std::string name = result_file_name(row.submission);
      std::optional<std::string> content = read_file((fs::path(report.dir) / "results" / name).string());
      if (content) write_file_atomically((results / name).string(), *content);
    }
}
}  // namespace

int merge_grade_reports(const GradeMergeOptions& options) {
  if (options.report_dirs.empty()) throw JudgeFault{"grade --merge: name the shards' report directories"};
  if (options.out.empty()) throw JudgeFault{"grade --merge: --out DIR is needed (where the merged report goes)"};
  std::vector<Report> reports;
  for (const std::string& dir : options.report_dirs) reports.push_back(read_report(dir));
  check_whole(reports);
  std::vector<GradeRow> rows;
  std::map<std::string, std::string> owner;  // submission -> report
  for (const Report& report : reports)
    for (const GradeRow& row : report.rows) {
      auto [at, added] = owner.emplace(row.submission, report.dir);
      if (!added)
        throw JudgeFault{fmt::format("grade --merge: {} is in both {} and {}", terminal_safe(row.submission),
                                     display_path(at->second), display_path(report.dir))};
      rows.push_back(row);
    }
  // The order find_submissions gives a single run.
  std::sort(rows.begin(), rows.end(), [](const GradeRow& a, const GradeRow& b) { return a.submission < b.submission; });
  copy_results(reports, fs::path(options.out) / "results");
  fmt::print("merged {} report(s) of {}\n", reports.size(), reports.front().problem);
  if (std::size_t errors = write_grade_summary(reports.front().problem, options.out, rows, std::nullopt)) {
    fmt::print(stderr, "judge: {} submission(s) could not be judged (verdict \"error\"); rerun their shards\n", errors);
    return 2;
  }
  return 0;
}

}  // namespace judge
