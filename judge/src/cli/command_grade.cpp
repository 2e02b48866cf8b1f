// `judge grade PROBLEM DIR`: every submission in a folder (course/grade.hpp),
// or a share of it (--shard K/N); `judge grade --merge REPORT_DIR... --out
// DIR`: the shards' reports made one (course/grade_merge.hpp).
#include "cli/command.hpp"
#include "course/grade.hpp"
#include "course/grade_merge.hpp"
#include "sandbox/sandbox_policy.hpp"
#include "util/errors.hpp"

namespace judge {
namespace {
class GradeCommand : public Command {
 public:
  void define(CLI::App& command) override {
    command.add_option("PROBLEM", options_.slug, "problem slug");
    command.add_option("DIR", options_.dir, "a folder of submissions (*.hpp, *.h, *.cpp, ...)");
    command.add_option("--jobs", options_.jobs, "judgings at once (default: one per core)");
    command
        .add_option("--out", options_.report_dir,
                    "where results and summaries go (default: DIR/.judge-grade); with --merge, the merged report")
        ->type_name("DIR");
    command.add_flag("--sanitize", options_.sanitize, "judge every submission under AddressSanitizer and UBSan");
    command.add_flag("--shrink", options_.shrink,
                     "shrink each failing submission's first failures (a second each) into its result file");
    command.add_flag("--stop-after-timeouts", options_.stop_after_timeouts,
                     "after three cases of a submission time out, run no more of its cases (they earn nothing); "
                     "faster with hung submissions");
    command.add_flag("--trust-submissions", options_.trust_submissions, kTrustSubmissionsHelp);
    command.add_option("--shard", shard_, "grade only share K of N of the folder, split by file name")
        ->type_name("K/N");
    command.add_option("--merge", merge_.report_dirs, "merge the reports of shard runs into --out DIR")
        ->type_name("REPORT_DIR...")
        ->expected(1, -1);
  }

  int run(const CommandContext& context) override {
    if (!merge_.report_dirs.empty()) {
      if (!options_.slug.empty() || !shard_.empty())
        throw JudgeFault{"grade --merge takes only report directories and --out DIR"};
      merge_.out = options_.report_dir;
      return merge_grade_reports(context.paths, merge_);
    }
    if (options_.slug.empty() || options_.dir.empty())
      throw JudgeFault{"grade: give PROBLEM and DIR (or --merge REPORT_DIR... --out DIR)"};
    if (!shard_.empty()) parse_shard(shard_, &options_);
    return grade_folder(context.paths, options_);
  }

 private:
  GradeOptions options_;
  std::string shard_;
  GradeMergeOptions merge_;
};
}  // namespace

std::unique_ptr<Command> make_grade_command() { return std::make_unique<GradeCommand>(); }

}  // namespace judge
