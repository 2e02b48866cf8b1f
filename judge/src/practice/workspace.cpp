// Workspace files and the record of attempts, kept in
// workspace/.progress.json as {"SLUG": {"solved": bool, "attempts": [...]}}.
// An older record held only "solved" or "attempted" per problem; it is read
// as that, with no attempts.
#include "practice/workspace.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "package/layout.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"
#include "util/fingerprint.hpp"
#include "util/text.hpp"

namespace judge {
namespace fs = std::filesystem;
using nlohmann::json;
namespace {
std::string progress_file(const Paths& paths) { return (fs::path(paths.workspace_dir) / ".progress.json").string(); }

json read_progress(const Paths& paths) {
  std::optional<std::string> text = read_file(progress_file(paths));
  if (!text) return json::object();
  json data = json::parse(*text, nullptr, /*allow_exceptions=*/false);
  return data.is_object() ? data : json::object();
}

// The record of one problem, in the current form whatever form it has.
json record_of(const json& data, const std::string& slug) {
  json record = {{"solved", false}, {"attempts", json::array()}};
  if (!data.contains(slug)) return record;
  const json& stored = data[slug];
  if (stored.is_string()) {
    record["solved"] = stored == "solved";
    record["judged"] = true;
  } else if (stored.is_object()) {
    record["solved"] = stored.value("solved", false);
    if (stored.contains("attempts") && stored["attempts"].is_array()) record["attempts"] = stored["attempts"];
  }
  return record;
}

std::optional<Attempt> attempt_from(const json& entry) {
  if (!entry.is_object()) return std::nullopt;
  std::optional<Verdict> verdict = verdict_from_name(entry.value("verdict", ""));
  if (!verdict) return std::nullopt;
  Attempt attempt;
  attempt.time = entry.value("time", "");
  attempt.verdict = *verdict;
  attempt.passed = entry.value("passed", std::size_t{0});
  attempt.cases = entry.value("cases", std::size_t{0});
  attempt.seconds = entry.value("seconds", 0.0);
  return attempt;
}

// Editors (clangd) read this to find the harness headers and Eigen.
void write_editor_flags(const Paths& paths) {
  std::string flags_file = (fs::path(paths.workspace_dir) / "compile_flags.txt").string();
  if (fs::exists(flags_file)) return;
  std::ofstream out(flags_file);
  out << "-std=c++20\n-I" << paths.harness_include << "\n-isystem\n" << paths.eigen_include << "\n";
}
}  // namespace

std::string progress_name(Progress progress) {
  switch (progress) {
    case Progress::kNotStarted: return "not started";
    case Progress::kStarted: return "started";
    case Progress::kAttempted: return "attempted";
    case Progress::kSolved: return "solved";
  }
  return "?";
}

std::string workspace_file(const Paths& paths, const std::string& slug) {
  return (fs::path(paths.workspace_dir) / (slug + ".hpp")).string();
}

std::string solution_to_judge(const Paths& paths, const std::string& slug, const std::string& solution_file,
                              bool reference, bool* own_file) {
  if (own_file) *own_file = false;
  if (reference) return package_of(paths, slug).reference;
  if (!solution_file.empty()) return solution_file;
  std::string file = workspace_file(paths, slug);
  if (!fs::exists(file))
    throw JudgeFault{fmt::format("{}: no solution yet; run `judge start {}` first (or pass --solution FILE)",
                                 display_path(file), slug)};
  if (own_file) *own_file = true;
  return file;
}

bool start_problem(const Paths& paths, const Problem& problem) {
  std::string target = workspace_file(paths, problem.slug);
  if (fs::exists(target)) return false;
  std::string stub = problem.package.stub;
  std::error_code error;
  fs::create_directories(paths.workspace_dir, error);
  if (error) throw JudgeFault{fmt::format("{}: cannot create the workspace: {}", paths.workspace_dir, error.message())};
  fs::copy_file(stub, target, fs::copy_options::none, error);
  if (error) throw JudgeFault{fmt::format("cannot copy {} to {}: {}", stub, target, error.message())};
  write_editor_flags(paths);
  return true;
}

Progress progress_of(const Paths& paths, const std::string& slug) {
  json record = record_of(read_progress(paths), slug);
  if (record["solved"] == true) return Progress::kSolved;
  if (!record["attempts"].empty() || record.value("judged", false)) return Progress::kAttempted;
  return fs::exists(workspace_file(paths, slug)) ? Progress::kStarted : Progress::kNotStarted;
}

std::vector<Attempt> attempts_of(const Paths& paths, const std::string& slug) {
  std::vector<Attempt> attempts;
  const json record = record_of(read_progress(paths), slug);
  for (const json& entry : record["attempts"])
    if (std::optional<Attempt> attempt = attempt_from(entry)) attempts.push_back(*attempt);
  return attempts;
}

std::optional<Attempt> best_attempt(const std::vector<Attempt>& attempts) {
  std::optional<Attempt> best;
  for (const Attempt& attempt : attempts) {
    auto rank = [](const Attempt& a) { return std::make_pair(a.verdict == Verdict::kAccepted, a.passed); };
    if (!best || rank(attempt) >= rank(*best)) best = attempt;
  }
  return best;
}

std::string record_attempt(const Paths& paths, const std::string& slug, const ProblemResult& result, double seconds) {
  json data = read_progress(paths);
  json record = record_of(data, slug);
  record.erase("judged");
  // The file judged, by content: judging it again unchanged is no new attempt.
  Fingerprint content;
  content.add(read_file(workspace_file(paths, slug)).value_or(""));
  std::string file = content.hex().substr(0, 16);
  bool unchanged = !record["attempts"].empty() && record["attempts"].back().value("file", "") == file;
  std::size_t passed = 0;
  for (const TestResult& test : result.tests) passed += test.verdict == Verdict::kAccepted;
  std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  if (!unchanged)
    record["attempts"].push_back({{"time", fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(now))},
                                  {"verdict", verdict_name(result.verdict)},
                                  {"passed", passed},
                                  {"cases", result.tests.size()},
                                  {"seconds", std::round(seconds * 100) / 100},
                                  {"file", file}});
  record["solved"] = record["solved"] == true || result.verdict == Verdict::kAccepted;
  data[slug] = record;
  std::error_code error;
  fs::create_directories(paths.workspace_dir, error);
  if (error) return fmt::format("cannot create {}: {}", display_path(paths.workspace_dir), error.message());
  try {
    write_file_atomically(progress_file(paths), data.dump(2) + "\n");
  } catch (const JudgeFault& fault) {
    return fault.message;  // the verdict stands; the caller says the record is missing
  }
  return "";
}

void say_attempt_not_recorded(const std::string& why) {
  if (why.empty()) return;
  fmt::print(stderr, "judge: this attempt was not recorded in your history: {}\n", terminal_safe_line(why));
  std::fflush(stderr);
}

}  // namespace judge
