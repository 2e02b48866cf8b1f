// `judge validate PROBLEM... | --all`: every check a problem package must
// pass before learners see it, a line per check. With --all, every package
// is validated, a malformed one among them.
#include <fmt/format.h>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "authoring/package_validator.hpp"
#include "cli/command.hpp"
#include "judging/problem_catalog.hpp"
#include "package/layout.hpp"
#include "util/errors.hpp"
#include "util/terminal.hpp"

namespace judge {
namespace {
class ValidateCommand : public Command {
 public:
  void define(CLI::App& command) override {
    CLI::Option* problems = command.add_option("PROBLEM", slugs_, "problem slug(s)");
    command.add_flag("--all", all_, "every problem")->excludes(problems);
  }

  int run(const CommandContext& context) override {
    if (!all_ && slugs_.empty()) throw JudgeFault{"validate: missing PROBLEM (or --all)"};  // both: CLI11 refuses
    std::vector<std::string> targets = slugs_;
    if (all_) {
      // A problem whose files are malformed is validated too: its first
      // check, that the files load, fails and names the file, line and key,
      // and the others are validated all the same.
      std::vector<BrokenProblem> broken;
      for (const Problem& problem : ProblemCatalog(context.paths).load_all(&broken)) targets.push_back(problem.slug);
      for (const BrokenProblem& problem : broken) targets.push_back(problem.slug);
    }
    std::size_t failed_problems = 0;
    for (const std::string& slug : targets) failed_problems += !validate_one(context.paths, slug);
    if (targets.size() > 1) {
      fmt::print("{} of {} problems valid\n", targets.size() - failed_problems, targets.size());
      // The failed checks again, last: a log cut to its tail (a CI job's)
      // still says which problem failed and why.
      for (const auto& [slug, what] : failures_)
        fmt::print("  {}  {}: {}\n", paint(colour_, Tone::kFail, "FAIL"), slug, what);
    }
    return failed_problems ? 1 : 0;
  }

 private:
  // Prints each check as it completes; true when all passed.
  bool validate_one(const Paths& paths, const std::string& slug) {
    if (!is_problem(paths, slug) && !std::filesystem::is_directory(package_of(paths, slug).problem_dir))
      ProblemCatalog(paths).load(slug);  // unknown: exit 2
    fmt::print("validating {}\n", slug);
    std::fflush(stdout);
    ValidationReport report = validate_problem(paths, slug, [&](const ValidationCheck& check) { print(check); });
    std::size_t failed = 0;
    for (const ValidationCheck& check : report.checks)
      if (!check.ok) ++failed, failures_.emplace_back(slug, check.what);
    fmt::print(
        "{}: {}\n\n", slug,
        failed ? paint(colour_, Tone::kFailStrong, fmt::format("{} of {} checks failed", failed, report.checks.size()))
               : paint(colour_, Tone::kPassStrong, fmt::format("valid ({} checks)", report.checks.size())));
    return failed == 0;
  }

  void print(const ValidationCheck& check) {
    fmt::print("  {}  {}\n", check.ok ? paint(colour_, Tone::kPass, "ok  ") : paint(colour_, Tone::kFail, "FAIL"),
               check.what);
    if (!check.ok && !check.detail.empty()) {
      std::istringstream lines(check.detail);
      for (std::string line; std::getline(lines, line);) fmt::print("        {}\n", line);
    }
    std::fflush(stdout);
  }

  std::vector<std::string> slugs_;
  bool all_ = false;
  std::vector<std::pair<std::string, std::string>> failures_;  // (problem, check) of every failed check
  bool colour_ = wants_colour(stdout);
};
}  // namespace

std::unique_ptr<Command> make_validate_command() { return std::make_unique<ValidateCommand>(); }

}  // namespace judge
