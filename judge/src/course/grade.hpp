// `judge grade PROBLEM DIR`: judges a folder of submissions for one problem,
// several at once, resumably, and writes a summary for a gradebook.
//
// Submissions are the files directly in DIR whose names end in .hpp .h .hh
// .hxx .cpp .cc .cxx (hidden files skipped), each judged as the solution
// file on its own (it is #included into the problem's adapter, so it must
// not define main; it cannot include a classmate's file). A symbolic link
// is judged only when its target lies inside DIR; otherwise its row is a
// compile_error saying why. Each submission's result is written, when it
// is done, to REPORT_DIR/results/<file name>.json (atomically: a temporary
// file renamed), with a key hashed (SHA-256) from the submission's content,
// the problem's files, the reference, the adapter, the harness, the judge's
// binary and its options, and sealed with the judge's grade key
// (grade_seal.hpp); a rerun skips a submission whose stored row is sealed
// by this judge and whose key still matches, so an interrupted run
// resumes, and a changed file, a changed judge or an edited row judges
// again. At the end: REPORT_DIR/summary.csv and REPORT_DIR/summary.json,
// one row per submission. REPORT_DIR is --out, or DIR/.judge-grade: a
// symbolic link or a file there, or at results/, is refused, never
// written through (grade_report.hpp).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "package/verdict.hpp"
#include "util/paths.hpp"

namespace judge {

class GradeReport;  // course/grade_report.hpp

struct GradeOptions {
  std::string slug;
  std::string dir;         // the submissions
  std::string report_dir;  // empty: DIR/.judge-grade
  unsigned jobs = 0;       // parallel judgings; 0: one per core
  bool sanitize = false;   // judge every submission under --sanitize
  bool shrink = false;     // --shrink: each failing submission's result carries shrunk examples
  // --stop-after-timeouts: a submission's cases not started after three
  // time-outs are not run and earn nothing, as in `run`; otherwise every
  // case is judged, so that the credit counts what every case would earn.
  bool stop_after_timeouts = false;
  // Grade even where the sandbox lacks a protection other people's code
  // needs (sandbox/sandbox_policy.hpp).
  bool trust_submissions = false;
  // --shard K/N: only the submissions whose names fall in share K of N
  // (shard_of_submission); 0/0 grades them all.
  unsigned shard_index = 0;  // K, from 1
  unsigned shard_count = 0;  // N
};

// The share (0 to count-1) a submission belongs to: a SHA-256 of its file
// name, so that every machine, and every rerun, splits a folder alike and a
// file keeps its share when others are added.
unsigned shard_of_submission(const std::string& name, unsigned count);

// Parses "K/N" (1 <= K <= N <= 10000) into options; throws JudgeFault.
void parse_shard(const std::string& text, GradeOptions* options);

// One row of the summary.
struct GradeRow {
  std::string submission;  // the file name within DIR
  std::string verdict;     // a cli.md verdict, or "error" when the judge failed on it
  std::size_t passed = 0;
  std::size_t total = 0;
  double seconds = 0;  // wall time of the judging that gave this row
  std::string first_failing_case;
  std::string message;  // the first failing case's message, the compiler's, or the judge's error
  std::string key;      // what the result was computed from (see above)
};

// The row of a judged submission (without its name, seconds and key):
// its verdict, cases passed of all, and the first case that failed when it
// ran, with its message (a case never run only if no case that ran failed).
GradeRow row_from_result(const ProblemResult& result);

// The submissions in `dir` (regular files and symbolic links with a
// solution's extension, not hidden), sorted by name. Throws JudgeFault when
// `dir` is not a readable directory.
std::vector<std::string> find_submissions(const std::string& dir);

// Judges every submission not already graded and writes the summary.
// Prints progress on stdout (a bar on a terminal, a line per submission
// otherwise) and returns 0 once every submission has a row, whatever the
// verdicts; 2 when some submission could not be judged (its row says why).
// Throws JudgeFault when the judge cannot start (unknown problem, bad
// directory, report directory not writable).
int grade_folder(const Paths& paths, const GradeOptions& options);

// The CSV form of the summary (RFC 4180 quoting), header line first.
std::string grade_summary_csv(const std::vector<GradeRow>& rows);

// A row as summary.json and results/<file>.json hold it, and back
// (nullopt when a key is missing or of the wrong type).
nlohmann::json grade_row_json(const GradeRow& row);
std::optional<GradeRow> grade_row_from_json(const nlohmann::json& data);

// Which share of a folder a report holds: summary.json's "shard" object.
struct ShardOfFolder {
  unsigned index = 0;            // K, from 1
  unsigned count = 0;            // N
  std::size_t folder_total = 0;  // submissions in the whole folder
};

// Writes `report`'s summary.csv and summary.json (rows as given, which are
// sorted by submission; summary.json sealed) and prints the tally;
// summary.json notes `shard` when the rows are one share of the folder.
// Returns the number of rows with verdict "error". Throws JudgeFault when
// it cannot write.
std::size_t write_grade_summary(const std::string& slug, const GradeReport& report, const std::vector<GradeRow>& rows,
                                const std::optional<ShardOfFolder>& shard);

// The name of a submission's file under results/: NAME.json for a short
// name of letters, digits and ._-+; otherwise its letters and digits (at
// most 100) and a hash of the whole name, so that any name the file system
// allows (quotes, newlines, control characters, 255 bytes) has one.
std::string result_file_name(const std::string& submission);

}  // namespace judge
