// `judge grade PROBLEM DIR`: every submission in a folder (cli/grade.hpp).
#include "cli/command.hpp"
#include "cli/grade.hpp"

namespace judge {
namespace {
class GradeCommand : public Command {
 public:
  void define(CLI::App& command) override {
    command.add_option("PROBLEM", options_.slug, "problem slug")->required();
    command.add_option("DIR", options_.dir, "a folder of submissions (*.hpp, *.h, *.cpp, ...)")->required();
    command.add_option("--jobs", options_.jobs, "judgings at once (default: one per core)");
    command.add_option("--out", options_.report_dir, "where results and summaries go (default: DIR/.judge-grade)")
        ->type_name("DIR");
    command.add_flag("--sanitize", options_.sanitize, "judge every submission under AddressSanitizer and UBSan");
    command.add_flag("--shrink", options_.shrink,
                     "shrink each failing submission's first failures (a second each) into its result file");
    command.add_flag("--trust-submissions", options_.trust_submissions,
                     "grade even where runners would share your user without a system-call filter");
  }

  int run(const CommandContext& context) override { return grade_folder(context.paths, options_); }

 private:
  GradeOptions options_;
};
}  // namespace

std::unique_ptr<Command> make_grade_command() { return std::make_unique<GradeCommand>(); }

}  // namespace judge
