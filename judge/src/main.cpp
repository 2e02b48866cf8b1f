// judge: command-line entry point. Parses arguments, runs one command, maps
// failures to exit status 2 with a one-line reason on stderr.
#include <CLI/CLI.hpp>
#include <malloc.h>
#include <csignal>
#include <fmt/format.h>

#include "checks.hpp"
#include "cli_completion_model.hpp"
#include "commands.hpp"
#include "completion.hpp"
#include "grade.hpp"
#include "paths.hpp"
#include "watch.hpp"

namespace {
// Requests and replies of large cases are megabytes of numbers, built and
// freed for every call. By default glibc hands such blocks back to the
// kernel at once, and every call then pays a page fault per 4 KiB again:
// on a virtual machine that was most of the time of a 262,144-token case.
// Keeping freed memory for reuse costs at most the largest case's size.
void keep_freed_memory() {
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
}
}  // namespace

int main(int argc, char** argv) {
  using namespace judge;
  std::signal(SIGPIPE, SIG_IGN);  // a runner that dies mid-write must not take the judge along
  keep_freed_memory();
  CLI::App app{"judge: a practice judge for LLM decoding problems"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "all commands' options");

  std::string format_name = "text";
  auto add_format = [&](CLI::App* command, std::vector<std::string> formats = {"text", "json"}) {
    command->add_option("--format", format_name, "output format")->check(CLI::IsMember(formats));
  };

  CLI::App* list = app.add_subcommand("list", "the problems in course order, with your status of each");
  add_format(list);
  std::string slug;
  CLI::App* show = app.add_subcommand("show", "a problem's statement, signature and sample cases");
  show->add_option("PROBLEM", slug, "problem slug, e.g. top_p")->required();
  CLI::App* start = app.add_subcommand("start", "copy a problem's stub to your workspace (never overwrites)");
  start->add_option("PROBLEM", slug, "problem slug")->required();

  CLI::App* doctor = app.add_subcommand("doctor", "which sandbox protections are active here, and why any is missing");
  add_format(doctor);

  std::vector<std::string> validate_slugs;
  bool validate_all = false;
  CLI::App* validate = app.add_subcommand("validate", "check problem packages: spec, cases, reference, stub, known solutions");
  validate->add_option("PROBLEM", validate_slugs, "problem slug(s)");
  validate->add_flag("--all", validate_all, "every problem");
  CLI::App* new_problem = app.add_subcommand("new", "scaffold a new problem package");
  new_problem->add_option("SLUG", slug, "the new problem's slug: lowercase letters, digits, _")->required();

  RunOptions run_options;
  CLI::App* run = app.add_subcommand("run", "judge your solution (or --solution FILE, or --reference)");
  run->add_option("PROBLEM", run_options.slugs, "problem slug(s)");
  run->add_flag("--all", run_options.all, "every problem");
  run->add_option("--solution", run_options.solution_file, "judge FILE instead of your workspace file");
  run->add_flag("--reference", run_options.reference, "judge the reference solution");
  run->add_flag("--no-cache", run_options.no_cache, "judge again even if nothing changed since the last run");
  run->add_flag("--sanitize", run_options.sanitize,
                "build your runner with AddressSanitizer and UBSan (slower; speed not judged)");
  run->add_option("--jobs", run_options.jobs,
                  "runners judging cases at once, or problems with --all (default: one per core)")
      ->check(CLI::Range(1u, 64u));
  add_format(run, {"text", "json", "junit", "exercism", "gradescope"});

  GradeOptions grade_options;
  CLI::App* grade = app.add_subcommand("grade", "judge every solution file in DIR, in parallel, resumably; CSV and JSON summary");
  grade->add_option("PROBLEM", grade_options.slug, "problem slug")->required();
  grade->add_option("DIR", grade_options.dir, "a folder of submissions (*.hpp, *.h, *.cpp, ...)")->required();
  grade->add_option("--jobs", grade_options.jobs, "judgings at once (default: one per core)");
  grade->add_option("--out", grade_options.report_dir, "where results and summaries go (default: DIR/.judge-grade)");
  grade->add_flag("--sanitize", grade_options.sanitize, "judge every submission under AddressSanitizer and UBSan");

  WatchOptions watch_options;
  CLI::App* watch = app.add_subcommand("watch", "judge your solution again on every save (Ctrl-C to stop)");
  watch->add_option("PROBLEM", watch_options.slug, "problem slug")->required();
  watch->add_option("--solution", watch_options.solution_file, "watch FILE instead of your workspace file");
  watch->add_flag("--sanitize", watch_options.sanitize, "build your runner with AddressSanitizer and UBSan");

  std::string shell;
  CLI::App* completion = app.add_subcommand("completion", "print a shell completion script (see README)");
  completion->add_option("SHELL", shell, "bash or zsh")->required()->check(CLI::IsMember({"bash", "zsh"}));
  CLI::App* slugs = app.add_subcommand("__slugs", "the problem slugs, one a line (for completion)")->group("");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "judge: {} (see judge --help)\n", e.what());
    return 2;
  }
  OutputFormat format = output_format_from_name(format_name);
  try {
    Paths paths = Paths::discover();
    if (*list) return command_list(paths, format);
    if (*grade) return command_grade(paths, grade_options);
    if (*watch) return command_watch(paths, watch_options);
    if (*completion) return fmt::print("{}", completion_script(shell, "judge", completion_model(app))), 0;
    if (*slugs) {
      for (const std::string& name : problem_slugs(paths.problems_dir)) fmt::print("{}\n", name);
      return 0;
    }
    if (*show) return command_show(paths, slug);
    if (*start) return command_start(paths, slug);
    if (*doctor) return command_doctor(format);
    if (*validate) {
      if (validate_all == !validate_slugs.empty())
        throw JudgeFault{validate_all ? "validate: give either PROBLEM or --all, not both" : "validate: missing PROBLEM (or --all)"};
      return command_validate(paths, validate_slugs);
    }
    if (*new_problem) return command_new(paths, slug);
    if (*run) {
      if (run_options.all == !run_options.slugs.empty())
        throw JudgeFault{run_options.all ? "run: give either PROBLEM or --all, not both" : "run: missing PROBLEM (or --all)"};
      if (run_options.reference && !run_options.solution_file.empty())
        throw JudgeFault{"run: --reference and --solution exclude each other"};
      run_options.format = format;
      return command_run(paths, run_options);
    }
  } catch (const JudgeFault& fault) {
    fmt::print(stderr, "judge: {}\n", fault.message);
    return 2;
  } catch (const SpecError& error) {
    fmt::print(stderr, "judge: {}\n", error.message);
    return 2;
  } catch (const std::exception& error) {
    fmt::print(stderr, "judge: internal error: {}\n", error.what());
    return 2;
  }
  return 2;
}
