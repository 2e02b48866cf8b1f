// `judge list`: the problems in course order, with the learner's status.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "check/registry.hpp"
#include "cli/command.hpp"
#include "cli/workspace.hpp"

namespace judge {
namespace {
class ListCommand : public Command {
 public:
  void define(CLI::App& command) override {
    command.add_option("--format", format_, "output format")->check(CLI::IsMember({"text", "json"}));
  }

  int run(const CommandContext& context) override {
    const Paths& paths = context.paths;
    std::vector<Problem> problems = load_all_problems(paths.problems_dir, checker_case_rules());
    if (format_ == "json") {
      nlohmann::json out = nlohmann::json::array();
      for (const Problem& problem : problems)
        out.push_back({{"problem", problem.slug},
                       {"title", problem.title},
                       {"order", problem.order},
                       {"status", progress_name(progress_of(paths, problem.slug))}});
      fmt::print("{}\n", nlohmann::json{{"problems", out}}.dump());
      return 0;
    }
    for (const Problem& problem : problems)
      fmt::print("{:>2}. {:<22} {:<36} {}\n", problem.order, problem.slug, problem.title,
                 progress_name(progress_of(paths, problem.slug)));
    return 0;
  }

 private:
  std::string format_ = "text";
};
}  // namespace

std::unique_ptr<Command> make_list_command() { return std::make_unique<ListCommand>(); }

}  // namespace judge
