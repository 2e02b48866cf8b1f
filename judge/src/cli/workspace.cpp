// Workspace files and progress, kept in workspace/.progress.json.
#include "cli/workspace.hpp"

#include <fmt/format.h>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "spec/package.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"
#include "util/text.hpp"

namespace judge {
namespace fs = std::filesystem;
namespace {
std::string progress_file(const Paths& paths) { return (fs::path(paths.workspace_dir) / ".progress.json").string(); }

nlohmann::json read_progress(const Paths& paths) {
  std::optional<std::string> text = read_file(progress_file(paths));
  if (!text) return nlohmann::json::object();
  nlohmann::json data = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  return data.is_object() ? data : nlohmann::json::object();
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
  std::string stub = package_of(paths, problem.slug).stub;
  std::error_code error;
  fs::create_directories(paths.workspace_dir, error);
  if (error) throw JudgeFault{fmt::format("{}: cannot create the workspace: {}", paths.workspace_dir, error.message())};
  fs::copy_file(stub, target, fs::copy_options::none, error);
  if (error) throw JudgeFault{fmt::format("cannot copy {} to {}: {}", stub, target, error.message())};
  write_editor_flags(paths);
  return true;
}

Progress progress_of(const Paths& paths, const std::string& slug) {
  nlohmann::json data = read_progress(paths);
  if (data.contains(slug) && data[slug].is_string()) {
    if (data[slug] == "solved") return Progress::kSolved;
    return Progress::kAttempted;
  }
  return fs::exists(workspace_file(paths, slug)) ? Progress::kAttempted : Progress::kNotStarted;
}

void record_progress(const Paths& paths, const std::string& slug, Verdict verdict) {
  nlohmann::json data = read_progress(paths);
  bool solved = verdict == Verdict::kAccepted || data.value(slug, "") == "solved";
  data[slug] = solved ? "solved" : "attempted";
  std::error_code error;
  fs::create_directories(paths.workspace_dir, error);
  try {
    write_file_atomically(progress_file(paths), data.dump(2) + "\n");
  } catch (const JudgeFault&) {
    // Progress is a convenience: a read-only workspace still judges.
  }
}

}  // namespace judge
