// `judge solution PROBLEM`: the reference solution and why it is written
// that way (solutions/SLUG/explanation.md), once the learner has solved the
// problem in this workspace, or with --force, which says it spoils it.
#include <fmt/format.h>

#include "cli/command.hpp"
#include "judging/problem_catalog.hpp"
#include "package/layout.hpp"
#include "practice/workspace.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"
#include "util/text.hpp"

namespace judge {
namespace {
class SolutionCommand : public Command {
 public:
  void define(CLI::App& command) override {
    command.add_option("PROBLEM", slug_, "problem slug, e.g. top_p")->required();
    command.add_flag("--force", force_, "show it even though the problem is not solved yet (spoils it)");
  }

  int run(const CommandContext& context) override {
    Problem problem = ProblemCatalog(context.paths).load(slug_);
    const Package& package = problem.package;
    bool solved = progress_of(context.paths, problem.slug) == Progress::kSolved;
    if (!solved && !force_) {
      fmt::print(stderr,
                 "judge: {} is not solved in this workspace yet; solve it first (judge run {}), or see the "
                 "reference anyway with `judge solution {} --force`, which spoils the problem\n",
                 problem.slug, problem.slug, problem.slug);
      return 1;
    }
    std::optional<std::string> reference = read_file(package.reference);
    if (!reference) throw JudgeFault{fmt::format("{}: the problem has no reference solution", package.reference)};
    if (!solved)
      fmt::print(stderr, "judge: spoiler: {} is not solved in this workspace; this is the reference\n", problem.slug);
    fmt::print("{}  ({})\n\n", problem.title, problem.slug);
    fmt::print("The reference solution, {}:\n\n{}\n", display_path(package.reference), *reference);
    if (std::optional<std::string> explanation = read_file(package.explanation))
      fmt::print("\n{}", *explanation);
    else
      fmt::print("\n(no explanation has been written for this problem: {} does not exist)\n",
                 display_path(package.explanation));
    return 0;
  }

 private:
  std::string slug_;
  bool force_ = false;
};
}  // namespace

std::unique_ptr<Command> make_solution_command() { return std::make_unique<SolutionCommand>(); }

}  // namespace judge
