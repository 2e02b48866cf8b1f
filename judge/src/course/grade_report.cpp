// grade's report directory, read and written without trusting what others
// placed in it (grade_report.hpp).
#include "course/grade_report.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

#include "package/result_codec.hpp"
#include "util/errors.hpp"
#include "util/text.hpp"

namespace judge {
namespace {
using nlohmann::json;
constexpr std::uint64_t kMaxStoredBytes = 64ull << 20;  // far above any result grade writes
constexpr const char* kResultKind = "result";
constexpr const char* kSummaryKind = "summary";
constexpr const char* kUnsealed = "its seal does not verify: edited, planted, or sealed with another key";

// A name as it reads back from JSON (invalid UTF-8 becomes U+FFFD).
std::string as_stored(const std::string& name) { return json::parse(json_text(json(name))).get<std::string>(); }

// Why a file that was not read is not trusted; empty when it is absent.
std::string why_unread(ReadRefusal refusal, int error_number) {
  switch (refusal) {
    case ReadRefusal::kNone: return "";
    case ReadRefusal::kCannotOpen:
      return error_number == ENOENT ? "" : fmt::format("cannot be read: {}", std::strerror(error_number));
    case ReadRefusal::kNotRegular: return "not a regular file: a symbolic link, a directory or a device";
    case ReadRefusal::kTooLarge: return "larger than any file judge grade writes";
  }
  return "";
}

// `name` in `dir`, parsed and verified as a sealed `kind`; nullopt with
// *distrust set (empty when the file is absent).
std::optional<json> read_sealed(const Directory& dir, const std::string& name, const GradeSeal& seal, const char* kind,
                                std::string* distrust) {
  ReadRefusal refusal = ReadRefusal::kNone;
  int error_number = 0;
  std::optional<std::string> text = dir.read(name, kMaxStoredBytes, &refusal, &error_number);
  *distrust = why_unread(refusal, error_number);
  if (!text) return std::nullopt;
  json data = json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (data.is_discarded() || !seal.verifies(data, kind)) {
    *distrust = kUnsealed;
    return std::nullopt;
  }
  return data;
}
}  // namespace

GradeReport GradeReport::for_writing(const std::string& base, const std::vector<std::string>& below, GradeSeal seal) {
  Directory report = Directory::open(base, /*create=*/true);
  for (const std::string& name : below) report = report.child(name, /*create=*/true);
  Directory results = report.child("results", /*create=*/true);
  results.remove_write_leftovers();
  return GradeReport(std::move(report), std::move(results), std::move(seal));
}

GradeReport GradeReport::for_reading(const std::string& dir, GradeSeal seal) {
  Directory report = Directory::open(dir, /*create=*/false);
  Directory results = report.child("results", /*create=*/false);
  return GradeReport(std::move(report), std::move(results), std::move(seal));
}

StoredRow GradeReport::read_row(const std::string& submission) const {
  StoredRow stored;
  std::optional<json> data = read_sealed(results_, result_file_name(submission), seal_, kResultKind, &stored.distrust);
  if (!data) return stored;
  std::optional<GradeRow> row = grade_row_from_json(*data);
  if (!row) {
    stored.distrust = kUnsealed;  // sealed, yet not a row: another kind of file
  } else if (row->submission != as_stored(submission)) {
    stored.distrust = fmt::format("sealed for another submission: {}", terminal_safe_line(row->submission));
  } else {
    stored.row = std::move(row);
    stored.data = std::move(*data);
  }
  return stored;
}

void GradeReport::write_row(const GradeRow& row, const json& result) const {
  json data = with_schema_version(grade_row_json(row));
  if (!result.is_null()) data["result"] = result;
  write_row_data(row.submission, std::move(data));
}

void GradeReport::write_row_data(const std::string& submission, json data) const {
  results_.write(result_file_name(submission), json_text(seal_.seal(std::move(data), kResultKind), 2) + "\n");
}

std::optional<json> GradeReport::read_summary(std::string* distrust) const {
  std::optional<json> data = read_sealed(report_, "summary.json", seal_, kSummaryKind, distrust);
  if (!data && distrust->empty()) *distrust = "there is none: did that run finish?";
  return data;
}

std::pair<std::string, std::string> GradeReport::write_summary(const std::string& csv, json summary) const {
  report_.write("summary.csv", csv);
  report_.write("summary.json", json_text(seal_.seal(std::move(summary), kSummaryKind), 2) + "\n");
  return {report_.path_of("summary.csv"), report_.path_of("summary.json")};
}

std::string GradeReport::path() const { return report_.path(); }

std::string GradeReport::results_path() const { return results_.path(); }

}  // namespace judge
