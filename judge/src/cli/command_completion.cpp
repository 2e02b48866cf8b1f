// `judge completion bash|zsh`, and the hidden `judge __slugs` the scripts
// call to complete problem names.
#include <fmt/format.h>

#include "cli/command.hpp"
#include "cli/completion_model.hpp"
#include "cli/completion_script.hpp"
#include "package/layout.hpp"

namespace judge {
namespace {
class ShellCompletionCommand : public Command {
 public:
  void define(CLI::App& command) override {
    command.add_option("SHELL", shell_, "bash or zsh")->required()->check(CLI::IsMember({"bash", "zsh"}));
  }

  int run(const CommandContext& context) override {
    fmt::print("{}", completion_script(shell_, "judge", completion_model(context.app)));
    return 0;
  }

 private:
  std::string shell_;
};

class SlugsCommand : public Command {
 public:
  void define(CLI::App&) override {}

  int run(const CommandContext& context) override {
    for (const std::string& name : problem_slugs(context.paths.problems_dir)) fmt::print("{}\n", name);
    return 0;
  }
};
}  // namespace

std::unique_ptr<Command> make_completion_command() { return std::make_unique<ShellCompletionCommand>(); }
std::unique_ptr<Command> make_slugs_command() { return std::make_unique<SlugsCommand>(); }

}  // namespace judge
