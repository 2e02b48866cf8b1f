// `judge new SLUG`: a new problem package that builds at once.
#include <fmt/format.h>

#include "authoring/scaffold.hpp"
#include "cli/command.hpp"
#include "util/text.hpp"

namespace judge {
namespace {
class NewCommand : public Command {
 public:
  void define(CLI::App& command) override {
    command.add_option("SLUG", slug_, "the new problem's slug: lowercase letters, digits, _")->required();
  }

  int run(const CommandContext& context) override {
    std::vector<std::string> created = scaffold_problem(context.paths, slug_);
    for (const std::string& file : created) fmt::print("created {}\n", display_path(file));
    fmt::print("\nNext: judge validate {} (it lists what to fill in), and docs/adding-a-problem.md.\n", slug_);
    return 0;
  }

 private:
  std::string slug_;
};
}  // namespace

std::unique_ptr<Command> make_new_command() { return std::make_unique<NewCommand>(); }

}  // namespace judge
