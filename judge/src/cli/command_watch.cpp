// `judge watch PROBLEM`: judges again on every save (practice/watch.hpp).
#include "cli/command.hpp"
#include "practice/watch.hpp"
#include "sandbox/sandbox_policy.hpp"

namespace judge {
namespace {
class WatchCommand : public Command {
 public:
  void define(CLI::App& command) override {
    command.add_option("PROBLEM", options_.slug, "problem slug")->required();
    command.add_option("--solution", options_.solution_file, "watch FILE instead of your workspace file")
        ->type_name("FILE");
    command.add_flag("--sanitize", options_.sanitize, "build your runner with AddressSanitizer and UBSan");
    command.add_flag("--trust-submissions", options_.trust_submissions, kTrustSubmissionsHelp);
  }

  int run(const CommandContext& context) override { return watch_and_judge(context.paths, options_); }

 private:
  WatchOptions options_;
};
}  // namespace

std::unique_ptr<Command> make_watch_command() { return std::make_unique<WatchCommand>(); }

}  // namespace judge
