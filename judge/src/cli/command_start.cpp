// `judge start PROBLEM`: the stub, copied to the workspace (never over a file).
#include <fmt/format.h>

#include "cli/command.hpp"
#include "judging/problem_catalog.hpp"
#include "package/layout.hpp"
#include "practice/workspace.hpp"
#include "util/text.hpp"

namespace judge {
namespace {
class StartCommand : public Command {
 public:
  void define(CLI::App& command) override { command.add_option("PROBLEM", slug_, "problem slug")->required(); }

  int run(const CommandContext& context) override {
    Problem problem = ProblemCatalog(context.paths).load(slug_);
    std::string file = workspace_file(context.paths, slug_);
    bool created = start_problem(context.paths, problem);
    fmt::print("{}\n", display_path(file));
    if (created)
      fmt::print(stderr, "created from the stub; edit it, then: judge run {}\n", slug_);
    else
      fmt::print(stderr, "already exists; left as it is (delete it to start over)\n");
    return 0;
  }

 private:
  std::string slug_;
};
}  // namespace

std::unique_ptr<Command> make_start_command() { return std::make_unique<StartCommand>(); }

}  // namespace judge
