// `judge run`: judges the learner's file (or --solution FILE, or the
// reference) for one problem or several, and reports in the chosen format.
#include <fmt/format.h>
#include <chrono>
#include <filesystem>
#include <mutex>

#include "cli/command.hpp"
#include "judging/judging.hpp"
#include "judging/problem_catalog.hpp"
#include "judging/shrink.hpp"
#include "package/layout.hpp"
#include "practice/workspace.hpp"
#include "report/formats.hpp"
#include "sandbox/sandbox_policy.hpp"
#include "util/errors.hpp"
#include "util/text.hpp"
#include "util/worker_pool.hpp"

namespace judge {
namespace fs = std::filesystem;
namespace {
struct RunOptions {
  std::vector<std::string> slugs;  // empty with `all`
  bool all = false;
  std::string solution_file;  // --solution
  bool reference = false;     // --reference
  bool no_cache = false;      // --no-cache: judge even an unchanged solution again
  bool sanitize = false;      // --sanitize: ASan + UBSan build of the learner's runner
  unsigned jobs = 0;          // --jobs: cases (problems, with several) judged at once; 0: one per core
  bool no_shrink = false;     // --no-shrink: no shrunk example of a failure
  double shrink_budget_s = kDefaultShrinkBudgetMs / 1000;  // --shrink-budget
  std::string format = "text";
  std::string hidden_visibility;   // --hidden-visibility (gradescope)
  bool trust_submissions = false;  // --trust-submissions
};

// One problem to judge, and what came of it.
struct Job {
  const Problem* problem = nullptr;
  JudgeRequest request;
  bool own_file = false;  // the learner's workspace file: progress is recorded
  ProblemResult result;
  double seconds = 0;  // judging it took
  std::exception_ptr error;
  bool done = false;
};

// The problems to judge. With --all, a problem whose files are malformed is
// left out and listed in `broken`, and the others are judged.
std::vector<Problem> problems_to_run(const Paths& paths, const RunOptions& options,
                                     std::vector<BrokenProblem>* broken) {
  // Both PROBLEM and --all, or --reference with --solution: CLI11 refuses
  // them (`excludes`, in define).
  if (!options.all && options.slugs.empty()) throw JudgeFault{"run: missing PROBLEM (or --all)"};
  std::vector<Problem> problems;
  if (options.all) problems = ProblemCatalog(paths).load_all(broken);
  for (const std::string& slug : options.slugs) problems.push_back(ProblemCatalog(paths).load(slug));
  if (!options.solution_file.empty() && problems.size() != 1) throw JudgeFault{"--solution needs exactly one problem"};
  if (format_takes_one_problem(options.format) && (options.all || problems.size() != 1))
    throw JudgeFault{
        fmt::format("run: --format {} reports one problem per run; give exactly one PROBLEM", options.format)};
  if (!options.hidden_visibility.empty() && options.format != "gradescope")
    throw JudgeFault{"run: --hidden-visibility is for --format gradescope"};
  if (!options.solution_file.empty() && !fs::is_regular_file(options.solution_file))
    throw JudgeFault{fmt::format("--solution: no such file '{}'", options.solution_file)};
  return problems;
}

Job job_for(const Paths& paths, const Problem& problem, const RunOptions& options, std::size_t problem_count) {
  Job job;
  job.problem = &problem;
  JudgeRequest& request = job.request;
  bool own = !options.reference && options.solution_file.empty();
  if (own && options.all && !fs::exists(workspace_file(paths, problem.slug))) return job;  // not started: left out
  request.solution_file =
      solution_to_judge(paths, problem.slug, options.solution_file, options.reference, &job.own_file);
  request.display_name = display_path(request.solution_file);
  request.use_result_cache = !options.no_cache;
  request.sanitize = options.sanitize;
  request.shrink_budget_ms = options.no_shrink ? 0 : options.shrink_budget_s * 1000;
  // Gradescope and Exercism give credit per case: every case is judged.
  request.every_case = options.format == "gradescope" || options.format == "exercism";
  // Several problems are judged on every core already: one runner each.
  request.parallel_runners = problem_count > 1 ? 1 : options.jobs;
  return job;
}

class RunCommand : public Command {
 public:
  void define(CLI::App& command) override {
    CLI::Option* problems = command.add_option("PROBLEM", options_.slugs, "problem slug(s)");
    command.add_flag("--all", options_.all, "every problem")->excludes(problems);
    CLI::Option* solution =
        command.add_option("--solution", options_.solution_file, "judge FILE instead of your workspace file")
            ->type_name("FILE");
    command.add_flag("--reference", options_.reference, "judge the reference solution")->excludes(solution);
    command.add_flag("--no-cache", options_.no_cache, "judge again even if nothing changed since the last run");
    command.add_flag("--sanitize", options_.sanitize,
                     "build your runner with AddressSanitizer and UBSan (slower; speed not judged)");
    command
        .add_option("--jobs", options_.jobs,
                    "runners judging cases at once, or problems with --all (default: one per core)")
        ->check(CLI::Range(1u, 64u));
    command.add_flag("--no-shrink", options_.no_shrink, "show no shrunk example of a failing case");
    command
        .add_option("--shrink-budget", options_.shrink_budget_s,
                    "seconds spent shrinking failing inputs after judging (default 1)")
        ->type_name("SECONDS")
        ->check(CLI::Range(0.01, 600.0));
    command.add_option("--format", options_.format, "output format")->check(CLI::IsMember(output_format_names()));
    command
        .add_option("--hidden-visibility", options_.hidden_visibility,
                    fmt::format("gradescope: when students see hidden cases (default {})", kGradescopeHiddenDefault))
        ->check(CLI::IsMember(gradescope_visibilities()));
    command.add_flag("--trust-submissions", options_.trust_submissions, kTrustSubmissionsHelp);
  }

  int run(const CommandContext& context) override {
    try {
      return run_reported(context);
    } catch (const JudgeFault& fault) {
      report_judge_failure(fault.message);
      throw;
    } catch (const SpecError& error) {
      report_judge_failure(error.message);
      throw;
    }
  }

 private:
  // A platform that reads only the results file still learns why there
  // are no results (stderr and the exit status say it too).
  void report_judge_failure(const std::string& message) const {
    std::string document = judge_failure_document(options_.format, "judge: " + message);
    if (document.empty()) return;
    std::fputs(document.c_str(), stdout);
    std::fflush(stdout);
  }

  int run_reported(const CommandContext& context) {
    std::vector<BrokenProblem> broken;
    std::vector<Problem> problems = problems_to_run(context.paths, options_, &broken);
    // A course platform's format, or a file of another user: someone else's code.
    bool others = format_judges_others_code(options_.format) ||
                  (!options_.solution_file.empty() && owned_by_someone_else(options_.solution_file));
    if (!options_.reference) sandbox_note_ = check_sandbox_for("run", others, options_.trust_submissions);
    ReportOptions report;
    if (!options_.hidden_visibility.empty()) report.gradescope_hidden_visibility = options_.hidden_visibility;
    reporter_ = make_reporter(options_.format, stdout, report);
    std::vector<Job> jobs;
    std::vector<std::string> not_started;
    for (const Problem& problem : problems) {
      Job job = job_for(context.paths, problem, options_, problems.size());
      if (job.request.solution_file.empty() || !fs::exists(job.request.solution_file))
        not_started.push_back(problem.slug);
      else
        jobs.push_back(std::move(job));
    }
    if (jobs.size() == 1)
      run_one(context.paths, jobs.front());
    else if (!jobs.empty())
      run_several(context.paths, jobs);
    reporter_->not_started(not_started);
    reporter_->finish(options_.all || problems.size() > 1);
    // Each broken problem's error, after the others' verdicts: the judge
    // could not do that part of its job.
    for (const BrokenProblem& problem : broken) fmt::print(stderr, "judge: {}\n", terminal_safe(problem.error));
    if (!broken.empty()) return 2;
    return all_accepted_ && not_started.empty() ? 0 : 1;
  }

  // One problem: each case is reported as it finishes.
  void run_one(const Paths& paths, Job& job) {
    reporter_->begin_problem(*job.problem, job.request.display_name);
    job.request.on_case = [&](const TestResult& result) { reporter_->case_finished(result); };
    job.request.on_progress = [&](const std::string& what) { reporter_->progress(what); };
    if (reporter_->shows_previews())
      job.request.on_preview = [&](const TestResult& result) { reporter_->case_previewed(result); };
    auto started = std::chrono::steady_clock::now();
    job.result = judge_solution(paths, *job.problem, job.request);
    job.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    finish_job(paths, job);
  }

  // Several: judged on every core, each whole problem reported in course
  // order as soon as it and all before it are done.
  void run_several(const Paths& paths, std::vector<Job>& jobs) {
    std::mutex mutex;
    std::size_t next_to_report = 0;
    for_each_parallel(jobs.size(), options_.jobs, [&](std::size_t index) {
      Job& job = jobs[index];
      ProblemResult result;
      std::exception_ptr error;
      auto started = std::chrono::steady_clock::now();
      try {
        result = judge_solution(paths, *job.problem, job.request);
      } catch (...) {
        error = std::current_exception();
      }
      job.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      std::lock_guard<std::mutex> lock(mutex);
      job.result = std::move(result);
      job.error = error;
      job.done = true;
      while (next_to_report < jobs.size() && jobs[next_to_report].done && !jobs[next_to_report].error) {
        Job& ready = jobs[next_to_report++];
        reporter_->begin_problem(*ready.problem, ready.request.display_name);
        for (const TestResult& test : ready.result.tests) reporter_->case_finished(test);
        finish_job(paths, ready);
      }
    });
    for (Job& job : jobs)
      if (job.error) std::rethrow_exception(job.error);
  }

  void finish_job(const Paths& paths, Job& job) {
    job.result.sandbox_note = sandbox_note_;
    reporter_->problem_finished(job.result);
    if (job.own_file) say_attempt_not_recorded(record_attempt(paths, job.problem->slug, job.result, job.seconds));
    all_accepted_ = all_accepted_ && job.result.verdict == Verdict::kAccepted;
  }

  RunOptions options_;
  std::string sandbox_note_;  // what this machine's sandbox lacks, said with every verdict
  std::unique_ptr<Reporter> reporter_;
  bool all_accepted_ = true;
};
}  // namespace

std::unique_ptr<Command> make_run_command() { return std::make_unique<RunCommand>(); }

}  // namespace judge
