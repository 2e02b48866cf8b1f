// list, show, start and run.
#include "commands.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <mutex>
#include <sstream>
#include <thread>

#include "checks.hpp"
#include "compare.hpp"
#include "judging.hpp"
#include "build.hpp"
#include "report.hpp"
#include "sandbox.hpp"
#include "scaffold.hpp"
#include "validate.hpp"
#include "workspace.hpp"
#include "yaml_reader.hpp"

namespace judge {
namespace fs = std::filesystem;
namespace {
Problem load_by_slug(const Paths& paths, const std::string& slug) {
  std::string dir = (fs::path(paths.problems_dir) / slug).string();
  if (slug.find('/') != std::string::npos || !fs::is_regular_file(fs::path(dir) / "problem.yaml")) {
    std::string known;
    for (const Problem& problem : load_all_problems(paths.problems_dir)) known += (known.empty() ? "" : ", ") + problem.slug;
    throw JudgeFault{fmt::format("unknown problem '{}'; the problems are: {}", slug, known)};
  }
  return load_problem(dir);
}

std::unique_ptr<Reporter> make_reporter(OutputFormat format) {
  switch (format) {
    case OutputFormat::kJson: return make_json_reporter(stdout);
    case OutputFormat::kJunit: return make_junit_reporter(stdout);
    case OutputFormat::kExercism: return make_exercism_reporter(stdout);
    case OutputFormat::kGradescope: return make_gradescope_reporter(stdout);
    case OutputFormat::kText: break;
  }
  return make_text_reporter(stdout, wants_colour(stdout), wants_live_progress(stdout));
}

void print_case(const TestCase& test, const Operation& op) {
  fmt::print("  {}:\n", test.name);
  for (const auto& [name, type] : op.inputs)
    if (test.input.contains(name)) fmt::print("    {} = {}\n", name, brief(test.input[name], 12));
  if (test.expects_invalid_argument) fmt::print("    throws std::invalid_argument\n");
  else if (test.expect) fmt::print("    expect {}\n", brief(*test.expect, 12));
  else if (test.check != "values") fmt::print("    judged by: {}\n", test.check);
  if (!test.note.empty()) fmt::print("    ({})\n", test.note);
}
}  // namespace

OutputFormat output_format_from_name(const std::string& name) {
  if (name == "json") return OutputFormat::kJson;
  if (name == "junit") return OutputFormat::kJunit;
  if (name == "exercism") return OutputFormat::kExercism;
  if (name == "gradescope") return OutputFormat::kGradescope;
  return OutputFormat::kText;
}

int command_list(const Paths& paths, OutputFormat format) {
  std::vector<Problem> problems = load_all_problems(paths.problems_dir);
  if (format == OutputFormat::kJson) {
    nlohmann::json out = nlohmann::json::array();
    for (const Problem& problem : problems)
      out.push_back({{"problem", problem.slug}, {"title", problem.title}, {"order", problem.order},
                     {"status", progress_name(progress_of(paths, problem.slug))}});
    fmt::print("{}\n", nlohmann::json{{"problems", out}}.dump());
    return 0;
  }
  for (const Problem& problem : problems)
    fmt::print("{:>2}. {:<22} {:<36} {}\n", problem.order, problem.slug, problem.title,
               progress_name(progress_of(paths, problem.slug)));
  return 0;
}

int command_show(const Paths& paths, const std::string& slug) {
  Problem problem = load_by_slug(paths, slug);
  fmt::print("{}  ({})\n\n{}\n", problem.title, problem.slug, problem.statement);
  fmt::print("\nSignature:\n\n{}\n", problem.signature);
  fmt::print("\nLimits: {} ms per case, {} MiB of memory. Tolerance: atol {} or rtol {} per value.\n",
             problem.time_ms, problem.memory_mb, format_number(problem.tolerance.atol),
             format_number(problem.tolerance.rtol));
  fmt::print("\nSample cases:\n");
  for (const TestCase& test : problem.samples) print_case(test, *problem.find_op(test.op));
  fmt::print("\n{} hidden cases. Start with: judge start {}\n", problem.hidden.size(), problem.slug);
  return 0;
}

int command_start(const Paths& paths, const std::string& slug) {
  Problem problem = load_by_slug(paths, slug);
  std::string file = workspace_file(paths, slug);
  if (start_problem(paths, problem)) {
    fmt::print("{}\n", display_path(file));
    fmt::print(stderr, "created from the stub; edit it, then: judge run {}\n", slug);
  } else {
    fmt::print("{}\n", display_path(file));
    fmt::print(stderr, "already exists; left as it is (delete it to start over)\n");
  }
  return 0;
}

int command_doctor(OutputFormat format) {
  std::vector<ProtectionReport> protections = describe_protections();
  if (format == OutputFormat::kJson) {
    nlohmann::json out = nlohmann::json::array();
    for (const ProtectionReport& p : protections) out.push_back({{"name", p.name}, {"active", p.active}, {"detail", p.detail}});
    fmt::print("{}\n", nlohmann::json{{"compiler", compiler_command()}, {"protections", out}}.dump());
    return 0;
  }
  fmt::print("compiler: {} (set CXX to change)\n\nprotections for learners' code:\n", compiler_command());
  std::size_t missing = 0;
  for (const ProtectionReport& p : protections) {
    fmt::print("  {:<8} {:<28} {}\n", p.active ? "ok" : "MISSING", p.name, p.detail);
    missing += !p.active;
  }
  if (missing) fmt::print("\n{} protection(s) missing: the judge still runs, with less isolation.\n", missing);
  return 0;
}

int command_validate(const Paths& paths, const std::vector<std::string>& slugs) {
  std::vector<std::string> targets = slugs;
  if (targets.empty())
    for (const Problem& problem : load_all_problems(paths.problems_dir)) targets.push_back(problem.slug);
  bool colour = wants_colour(stdout);
  auto paint = [&](const char* code, const std::string& text) {
    return colour ? fmt::format("\033[{}m{}\033[0m", code, text) : text;
  };
  std::size_t failed_problems = 0;
  for (const std::string& slug : targets) {
    if (!fs::is_directory(fs::path(paths.problems_dir) / slug)) load_by_slug(paths, slug);  // unknown: exit 2
    fmt::print("validating {}\n", slug);
    std::fflush(stdout);
    ValidationReport report = validate_problem(paths, slug, [&](const ValidationCheck& check) {
      fmt::print("  {}  {}\n", check.ok ? paint("32", "ok  ") : paint("31", "FAIL"), check.what);
      if (!check.ok && !check.detail.empty()) {
        std::istringstream lines(check.detail);
        std::string line;
        while (std::getline(lines, line)) fmt::print("        {}\n", line);
      }
      std::fflush(stdout);
    });
    std::size_t failed = 0;
    for (const ValidationCheck& check : report.checks) failed += !check.ok;
    if (failed) ++failed_problems;
    fmt::print("{}: {}\n\n", slug,
               failed ? paint("31;1", fmt::format("{} of {} checks failed", failed, report.checks.size()))
                      : paint("32;1", fmt::format("valid ({} checks)", report.checks.size())));
  }
  if (targets.size() > 1)
    fmt::print("{} of {} problems valid\n", targets.size() - failed_problems, targets.size());
  return failed_problems ? 1 : 0;
}

int command_new(const Paths& paths, const std::string& slug) {
  std::vector<std::string> created = scaffold_problem(paths, slug);
  for (const std::string& file : created) fmt::print("created {}\n", display_path(file));
  fmt::print("\nNext: judge validate {} (it lists what to fill in), and docs/adding-a-problem.md.\n", slug);
  return 0;
}

int command_run(const Paths& paths, const RunOptions& options) {
  std::vector<Problem> problems;
  if (options.all) {
    problems = load_all_problems(paths.problems_dir);
  } else {
    for (const std::string& slug : options.slugs) problems.push_back(load_by_slug(paths, slug));
  }
  if (!options.solution_file.empty() && problems.size() != 1)
    throw JudgeFault{"--solution needs exactly one problem"};
  if (!options.solution_file.empty() && !fs::is_regular_file(options.solution_file))
    throw JudgeFault{fmt::format("--solution: no such file '{}'", options.solution_file)};

  std::unique_ptr<Reporter> reporter = make_reporter(options.format);
  struct Job {
    const Problem* problem = nullptr;
    JudgeRequest request;
    bool own_file = false;
    ProblemResult result;
    std::exception_ptr error;
    bool done = false;
  };
  std::vector<Job> jobs(problems.size());
  for (std::size_t i = 0; i < problems.size(); ++i) {
    Job& job = jobs[i];
    const Problem& problem = problems[i];
    job.problem = &problem;
    JudgeRequest& request = job.request;
    if (options.reference) {
      request.solution_file = reference_solution_path(paths, problem);
    } else if (!options.solution_file.empty()) {
      request.solution_file = options.solution_file;
    } else {
      request.solution_file = workspace_file(paths, problem.slug);
      job.own_file = true;
      if (!fs::exists(request.solution_file))
        throw JudgeFault{fmt::format("{}: no solution yet; run `judge start {}` first (or pass --solution FILE)",
                                     display_path(request.solution_file), problem.slug)};
    }
    request.display_name = display_path(request.solution_file);
    request.use_result_cache = !options.no_cache;
    request.sanitize = options.sanitize;
    // Several problems are judged on every core already (below): one runner each.
    request.parallel_runners = problems.size() > 1 ? 1 : options.jobs;
  }

  bool all_accepted = true;
  auto finish_job = [&](Job& job) {
    reporter->problem_finished(job.result);
    if (job.own_file) record_progress(paths, job.problem->slug, job.result.verdict);
    all_accepted = all_accepted && job.result.verdict == Verdict::kAccepted;
  };
  if (jobs.size() == 1) {
    // One problem: report each case as it finishes.
    Job& job = jobs.front();
    reporter->begin_problem(*job.problem, job.request.display_name);
    job.request.on_case = [&](const TestResult& result) { reporter->case_finished(result); };
    job.request.on_progress = [&](const std::string& what) { reporter->progress(what); };
    job.result = judge_solution(paths, *job.problem, job.request);
    finish_job(job);
  } else {
    // Several: judge them on every core, report each whole problem in course
    // order as soon as it and all before it are done.
    std::mutex mutex;
    std::size_t next_to_judge = 0, next_to_report = 0;
    auto report_ready = [&] {
      while (next_to_report < jobs.size() && jobs[next_to_report].done && !jobs[next_to_report].error) {
        Job& job = jobs[next_to_report++];
        reporter->begin_problem(*job.problem, job.request.display_name);
        for (const TestResult& test : job.result.tests) reporter->case_finished(test);
        finish_job(job);
      }
    };
    auto worker = [&] {
      for (;;) {
        Job* job;
        {
          std::lock_guard<std::mutex> lock(mutex);
          if (next_to_judge == jobs.size()) return;
          job = &jobs[next_to_judge++];
        }
        ProblemResult result;
        std::exception_ptr error;
        try {
          result = judge_solution(paths, *job->problem, job->request);
        } catch (...) {
          error = std::current_exception();
        }
        std::lock_guard<std::mutex> lock(mutex);
        job->result = std::move(result);
        job->error = error;
        job->done = true;
        report_ready();
      }
    };
    unsigned wanted = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
    std::size_t workers = std::min<std::size_t>(jobs.size(), wanted);
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < workers; ++i) threads.emplace_back(worker);
    for (std::thread& thread : threads) thread.join();
    for (Job& job : jobs)
      if (job.error) std::rethrow_exception(job.error);
  }
  reporter->finish(options.all || problems.size() > 1);
  return all_accepted ? 0 : 1;
}

}  // namespace judge
