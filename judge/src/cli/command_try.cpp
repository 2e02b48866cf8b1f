// `judge try PROBLEM --input YAML`: runs one op of the problem on the
// learner's own input, in the learner's runner and the reference's, and
// shows both answers and their difference (judging/try_run.hpp does the
// work, report/try_report.hpp the forms). Without --input it lists what
// can be tried. Exit status: 0 both ran and agree; 1 the learner's answer
// differs, or the learner's code failed or did not compile; 2 the input is
// bad or the judge cannot work.
#include <fmt/format.h>

#include <filesystem>

#include "cli/command.hpp"
#include "judging/problem_catalog.hpp"
#include "judging/try_run.hpp"
#include "package/layout.hpp"
#include "package/result_codec.hpp"
#include "package/typed_values.hpp"
#include "practice/workspace.hpp"
#include "report/try_report.hpp"
#include "sandbox/sandbox_policy.hpp"
#include "util/errors.hpp"
#include "util/terminal.hpp"
#include "util/text.hpp"

namespace judge {
namespace fs = std::filesystem;
namespace {
struct TryOptions {
  std::string slug;
  std::string input;          // --input: YAML, or a file of it
  std::string op;             // --op: empty for the problem's first
  std::string solution_file;  // --solution
  bool reference = false;     // --reference
  std::int64_t draws = 10000;
  bool full = false;
  std::string format = "text";
  bool trust_submissions = false;
};

// What `judge try PROBLEM` alone prints: the ops and their inputs, each
// with a sample case's input to start from.
void print_ops(const Problem& problem) {
  fmt::print("ops of {} to try (--op NAME; the first is the default):\n", problem.slug);
  for (const TryableOp& op : tryable_ops(problem)) {
    const char* how = op.mode == TryMode::kSampler     ? "a sampler: drawn over --draws N seeds of the judge's"
                      : op.mode == TryMode::kLaws      ? "speculative rounds over --draws N seeds of the judge's"
                      : op.mode == TryMode::kSeedSweep ? "without 'seed': once for each of --draws N seeds"
                                                       : "one call";
    fmt::print("  {}: {} ({})\n", op.op->name, inputs_text(op), how);
    if (!op.example) continue;
    std::string example;  // the sample's input, in the op's order
    for (const auto& [name, type] : op.op->inputs)
      if (op.example->input.contains(name))
        example += (example.empty() ? "" : ", ") + name + ": " + flow_yaml(op.example->input[name]);
    fmt::print("    judge try {} --op {} --input '{{{}}}'\n", problem.slug, op.op->name, example);
  }
}

class TryCommand : public Command {
 public:
  void define(CLI::App& command) override {
    command.add_option("PROBLEM", options_.slug, "problem slug, e.g. top_p")->required();
    input_option_ =
        command.add_option("--input", options_.input,
                           "the op's inputs as inline YAML, e.g. '{logits: [2, 1, 0.1], p: 0.8}', or a YAML file "
                           "(without it: the ops to try and their inputs)");
    command.add_option("--op", options_.op,
                       "the op to run (default: the problem's first); the ops are those its cases call, "
                       "listed by `judge try PROBLEM`");
    CLI::Option* solution =
        command.add_option("--solution", options_.solution_file, "run FILE instead of your workspace file");
    command.add_flag("--reference", options_.reference, "run the reference solution as yours")->excludes(solution);
    command.add_option("--draws", options_.draws, "seeds a sampler is drawn over (default 10000)")
        ->check(CLI::Range(std::int64_t{100}, std::int64_t{1000000}));
    command.add_flag("--full", options_.full, "print whole lists, not their first entries");
    command.add_option("--format", options_.format, "output format")->check(CLI::IsMember({"text", "json"}));
    command.add_flag("--trust-submissions", options_.trust_submissions, kTrustSubmissionsHelp);
  }

  int run(const CommandContext& context) override {
    Problem problem = ProblemCatalog(context.paths).load(options_.slug);
    const bool given = input_option_->count() > 0;
    if (!given && options_.op.empty()) {
      print_ops(problem);
      return 0;
    }
    TryableOp op = choose_op(problem, options_.op);
    if (!given) throw JudgeFault{fmt::format("try: missing --input (op {} takes {})", op.op->name, inputs_text(op))};
    TryInput input = read_try_input(problem, op, options_.input);
    TryRequest request;
    request.build.solution_file = solution_file(context.paths, problem);
    request.build.display_name = display_path(request.build.solution_file);
    if (!options_.reference) {
      std::string note =
          check_sandbox_for("try", owned_by_someone_else(request.build.solution_file), options_.trust_submissions);
      if (!note.empty()) fmt::print(stderr, "judge: note: {} (see judge doctor)\n", note);
    }
    request.draws = options_.draws;
    LiveLine live(stdout, options_.format == "text" && wants_live_progress(stdout));
    request.build.on_progress = [&](const std::string& what) { live.show(fmt::format("  {}...", what)); };
    TryResult result = try_solution(context.paths, problem, op, input, request);
    live.clear();
    if (options_.format == "json")
      fmt::print("{}\n", json_text(try_json(result)));
    else
      fmt::print("{}", try_text(result, options_.full));
    return result.agree ? 0 : 1;
  }

 private:
  // The file tried as the learner's: as `judge run` chooses it.
  std::string solution_file(const Paths& paths, const Problem& problem) const {
    if (!options_.solution_file.empty() && !fs::is_regular_file(options_.solution_file))
      throw JudgeFault{fmt::format("--solution: no such file '{}'", options_.solution_file)};
    return solution_to_judge(paths, problem.slug, options_.solution_file, options_.reference);
  }

  TryOptions options_;
  CLI::Option* input_option_ = nullptr;
};
}  // namespace

std::unique_ptr<Command> make_try_command() { return std::make_unique<TryCommand>(); }

}  // namespace judge
