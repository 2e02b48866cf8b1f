// `judge export gradescope PROBLEM... [--out FILE] [--hidden-visibility V]`:
// a course platform's autograder (course/gradescope_export.hpp).
#include <fmt/format.h>

#include "cli/command.hpp"
#include "course/gradescope_export.hpp"
#include "report/reporter.hpp"

namespace judge {
namespace {
class ExportCommand : public Command {
 public:
  void define(CLI::App& command) override {
    command.add_option("PLATFORM", platform_, "the platform: gradescope")
        ->required()
        ->check(CLI::IsMember({"gradescope"}));
    command.add_option("PROBLEM", options_.slugs, "the problems the autograder judges")->required();
    command.add_option("--out", options_.out, "the archive to write (default autograder.zip)")->type_name("FILE");
    command
        .add_option("--hidden-visibility", options_.hidden_visibility,
                    fmt::format("when students see hidden cases' results (default {})", kGradescopeHiddenDefault))
        ->check(CLI::IsMember(gradescope_visibilities()));
  }

  int run(const CommandContext& context) override {
    for (const std::string& line : export_gradescope(context.paths, options_)) fmt::print("{}\n", line);
    return 0;
  }

 private:
  std::string platform_;
  GradescopeExport options_;
};
}  // namespace

std::unique_ptr<Command> make_export_command() { return std::make_unique<ExportCommand>(); }

}  // namespace judge
