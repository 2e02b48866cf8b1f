// Where `judge grade` keeps a report, and what it trusts there. The
// report directory is often inside the folder being graded, which
// students fill: nothing there decides where the judge writes (every
// directory below the one the instructor named must be a real directory,
// and files are written and read without following a symbolic link), and a
// stored row is reused only when its seal (grade_seal.hpp) shows that this
// judge wrote it.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "course/grade.hpp"
#include "course/grade_seal.hpp"
#include "util/directory.hpp"

namespace judge {

// A submission's result file as found.
struct StoredRow {
  std::optional<GradeRow> row;  // the row, when the file is there and this judge's
  nlohmann::json data;          // the whole file then (row, result, seal)
  // Why a file that is there is not trusted ("not a regular file", "its
  // seal does not verify ..."); empty when it is trusted or absent.
  std::string distrust;
};

class GradeReport {
 public:
  // The report for writing: `base` (the directory the instructor named:
  // DIR or --out; made when missing, and taken as given), then each of
  // `below` in turn (".judge-grade", "shard-K-of-N") and results/, made
  // when missing. Temporary files of an interrupted run are removed.
  // Throws JudgeFault naming the directory when one below `base` is a
  // symbolic link or not a directory, or cannot be made.
  static GradeReport for_writing(const std::string& base, const std::vector<std::string>& below, GradeSeal seal);

  // A report already written (a shard's, for --merge): `dir` and its
  // results/ (which must be a real directory). Throws JudgeFault.
  static GradeReport for_reading(const std::string& dir, GradeSeal seal);

  // The result file of `submission` (result_file_name) as found: trusted
  // only when it is a regular file, is JSON holding a row, carries this
  // judge's seal, and names `submission`.
  StoredRow read_row(const std::string& submission) const;

  // Writes `submission`'s result file, sealed: `row` and, when not null,
  // the whole `result`. Throws JudgeFault when it cannot be written.
  void write_row(const GradeRow& row, const nlohmann::json& result) const;
  // Writes a result file whose members are `data` (a trusted StoredRow's),
  // sealed anew with this report's key.
  void write_row_data(const std::string& submission, nlohmann::json data) const;

  // summary.json's content when it is a regular file carrying this judge's
  // seal; nullopt with *distrust saying why otherwise.
  std::optional<nlohmann::json> read_summary(std::string* distrust) const;

  // Writes summary.csv as given and summary.json sealed; returns their
  // paths for messages. Throws JudgeFault.
  std::pair<std::string, std::string> write_summary(const std::string& csv, nlohmann::json summary) const;

  // The report directory and its results/, as messages show them.
  std::string path() const;
  std::string results_path() const;
  const GradeSeal& seal() const { return seal_; }

 private:
  GradeReport(Directory report, Directory results, GradeSeal seal)
      : report_(std::move(report)), results_(std::move(results)), seal_(std::move(seal)) {}
  Directory report_;
  Directory results_;
  GradeSeal seal_;
};

}  // namespace judge
