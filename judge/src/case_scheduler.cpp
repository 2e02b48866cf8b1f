// schedule_cases: worker threads take the shared cases, longest first; the
// calling thread reports them in order. run_cases gives each worker a
// learner and a reference runner of its own.
#include "case_scheduler.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <latch>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "checks.hpp"
#include "reference_oracle.hpp"
#include "typed_values.hpp"

namespace judge {
namespace {
// After this many cases time out, the rest are not run: each would cost a
// full time limit and the verdict is already decided.
constexpr int kMaxTimeouts = 3;
// Beyond a few runners the judge's own work and memory bandwidth dominate.
constexpr unsigned kMaxParallelRunners = 4;

// What one worker judges with: a learner runner and a reference runner of
// its own (a runner serves one request at a time).
struct Runners {
  Runners(const Problem& problem, const CaseRunSetup& setup)
      : oracle(problem, setup.reference_binary), learner(setup.learner_binary, setup.learner_limits) {}
  ReferenceOracle oracle;
  RunnerSession learner;
};

TestResult judge_case(const Problem& problem, const TestCase& listed, const CaseRunSetup& setup, Runners& runners) {
  // The case with its generated inputs expanded, for the checker.
  TestCase test = listed;
  test.input = materialize_input(listed.input);
  CheckContext context{problem, test, runners.learner,
                       [&](const std::string& op, const nlohmann::json& args) { return runners.oracle.call(op, args); }};
  if (setup.sanitize)
    context.timing_off_reason = "speed is not compared with the reference under --sanitize (sanitized code runs 2 to 7 times slower)";
  else
    context.reference_cpu_ms = [&](const Request& request) { return runners.oracle.cpu_ms(request); };
  TestResult result = find_checker(test.check)->run(context);
  explain_crash(setup.crash, &result);
  return result;
}

TestResult not_run(const TestCase& test, int timeouts) {
  TestResult result = start_result(test);
  result.verdict = Verdict::kTimeLimitExceeded;
  result.message = fmt::format("not run: {} other cases exceeded their time limit", timeouts);
  return result;
}
}  // namespace

unsigned default_parallel_runners() {
  return std::clamp(std::thread::hardware_concurrency(), 1u, kMaxParallelRunners);
}

void schedule_cases(const std::vector<const TestCase*>& cases, const std::vector<bool>& alone, std::size_t workers,
                    const std::function<TestResult(std::size_t worker, const TestCase& test)>& judge,
                    const std::function<void(std::size_t index, TestResult& result)>& report,
                    const std::function<void(std::size_t worker)>& start_worker) {
  std::vector<std::size_t> shared;  // indices of the cases that may share the machine
  for (std::size_t i = 0; i < cases.size(); ++i)
    if (!alone[i]) shared.push_back(i);
  // Longest first, so one long case does not start last and leave the other
  // cores idle; a case's time limit is the best guess of its length there is.
  std::stable_sort(shared.begin(), shared.end(),
                   [&](std::size_t a, std::size_t b) { return cases[a]->time_ms > cases[b]->time_ms; });
  workers = std::clamp<std::size_t>(workers, 1, std::max<std::size_t>(shared.size(), 1));

  std::mutex mutex;
  std::condition_variable finished;
  std::vector<std::optional<TestResult>> results(cases.size());
  std::size_t shared_done = 0;
  std::size_t reported = 0;  // cases the calling thread has reported, in order
  int timeouts = 0;
  std::exception_ptr error;
  std::atomic<std::size_t> next_shared{0};

  auto judge_one = [&](std::size_t worker, std::size_t index) {
    const TestCase& test = *cases[index];
    int timeouts_so_far;
    {
      std::lock_guard<std::mutex> lock(mutex);
      timeouts_so_far = timeouts;
    }
    TestResult result;
    try {
      result = timeouts_so_far >= kMaxTimeouts ? not_run(test, timeouts_so_far) : judge(worker, test);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex);
      if (!error) error = std::current_exception();
      next_shared = shared.size();  // no worker starts another case
      finished.notify_all();
      return;
    }
    std::lock_guard<std::mutex> lock(mutex);
    if (timeouts_so_far < kMaxTimeouts && result.verdict == Verdict::kTimeLimitExceeded) ++timeouts;
    results[index] = std::move(result);
    if (!alone[index]) ++shared_done;
    finished.notify_all();
  };

  // The first worker, which stays until the end, also runs the cases that
  // must run alone: each once every shared case is done and every case
  // before it is reported (a report may look for a hint, which compiles).
  std::latch workers_started(static_cast<std::ptrdiff_t>(workers));
  auto work = [&](std::size_t worker) {
    if (start_worker) start_worker(worker);
    workers_started.arrive_and_wait();
    for (std::size_t k; (k = next_shared++) < shared.size();) judge_one(worker, shared[k]);
    if (worker != 0) return;
    for (std::size_t i = 0; i < cases.size(); ++i) {
      if (!alone[i]) continue;
      {
        std::unique_lock<std::mutex> lock(mutex);
        finished.wait(lock, [&] { return (shared_done == shared.size() && reported == i) || error; });
        if (error) return;
      }
      judge_one(worker, i);
    }
  };

  std::vector<std::thread> threads;
  auto stop_workers = [&] {
    next_shared = shared.size();
    for (std::thread& thread : threads) thread.join();
  };
  try {
    for (std::size_t i = 0; i < workers; ++i) threads.emplace_back(work, i);
    for (std::size_t i = 0; i < cases.size(); ++i) {
      {
        std::unique_lock<std::mutex> lock(mutex);
        finished.wait(lock, [&] { return results[i].has_value() || error; });
        if (!results[i]) break;  // a case could not be judged: rethrown below
      }
      report(i, *results[i]);
      std::lock_guard<std::mutex> lock(mutex);
      reported = i + 1;
      finished.notify_all();
    }
  } catch (...) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (!error) error = std::current_exception();  // also stops the first worker before its timed cases
      finished.notify_all();
    }
    stop_workers();
    throw;
  }
  stop_workers();
  if (error) std::rethrow_exception(error);
}

void run_cases(const Problem& problem, const std::vector<const TestCase*>& cases, const CaseRunSetup& setup,
               const std::function<void(std::size_t, TestResult&)>& report) {
  std::vector<bool> alone(cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) alone[i] = find_checker(cases[i]->check)->measures_speed();
  std::size_t workers = std::max(1u, setup.parallel_runners);
  // Each runner starts on its worker's thread: a runner dies with the thread
  // that started it (PR_SET_PDEATHSIG). All start before any case: they
  // load while the first cases run, and the judge forks them while its heap
  // is small (after a fork, every page the judge writes again costs a page
  // fault, and a case's inputs and expectations are megabytes).
  std::vector<std::unique_ptr<Runners>> runners;
  for (std::size_t i = 0; i < workers; ++i) runners.push_back(std::make_unique<Runners>(problem, setup));
  schedule_cases(
      cases, alone, workers,
      [&](std::size_t worker, const TestCase& test) { return judge_case(problem, test, setup, *runners[worker]); },
      report,
      [&](std::size_t worker) {
        runners[worker]->learner.start_early();
        runners[worker]->oracle.start_early();
      });
}

}  // namespace judge
