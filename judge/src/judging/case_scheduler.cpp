// schedule_cases: worker threads take the shared cases, longest first; the
// calling thread reports them in order. run_cases gives each worker a
// learner and a reference runner of its own.
#include "judging/case_scheduler.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <latch>
#include <memory>
#include <mutex>
#include <optional>

#include "check/checker.hpp"
#include "check/reference_oracle.hpp"
#include "check/registry.hpp"
#include "spec/typed_values.hpp"
#include "util/worker_pool.hpp"

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
  CheckContext context{problem, test, runners.learner, [&](const std::string& op, const nlohmann::json& args) {
                         return runners.oracle.call(op, args);
                       }};
  context.reference_call = [&](const Request& request) { return runners.oracle.fresh_call(request); };
  if (setup.sanitize)
    context.timing_off_reason =
        "speed is not compared with the reference under --sanitize (sanitized code runs 2 to 7 times slower)";
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
  return static_cast<unsigned>(std::clamp<std::size_t>(hardware_workers(), 1, kMaxParallelRunners));
}

namespace {
// The state schedule_cases shares between its workers and the reporting
// thread, under one mutex.
class Schedule {
 public:
  using Judge = std::function<TestResult(std::size_t worker, const TestCase& test)>;
  using Report = std::function<void(std::size_t index, TestResult& result)>;

  Schedule(const std::vector<const TestCase*>& cases, const std::vector<bool>& alone, const Judge& judge)
      : cases_(cases), alone_(alone), judge_(judge), results_(cases.size()) {
    for (std::size_t i = 0; i < cases.size(); ++i)
      if (!alone[i]) shared_.push_back(i);
    // Longest first, so one long case does not start last and leave the
    // other cores idle; a case's time limit is the best guess of its length.
    std::stable_sort(shared_.begin(), shared_.end(),
                     [&](std::size_t a, std::size_t b) { return cases[a]->time_ms > cases[b]->time_ms; });
  }

  std::size_t shared_count() const { return shared_.size(); }

  // A worker's life: the shared cases it can take, and for worker 0 (which
  // stays until the end) the cases that must run alone, each once every
  // shared case is done and every case before it is reported (a report may
  // look for a hint, which compiles).
  void work(std::size_t worker) {
    for (std::size_t k; (k = next_shared_++) < shared_.size();) judge_one(worker, shared_[k]);
    if (worker != 0) return;
    for (std::size_t i = 0; i < cases_.size(); ++i) {
      if (!alone_[i]) continue;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        finished_.wait(lock, [&] { return (shared_done_ == shared_.size() && reported_ == i) || error_; });
        if (error_) return;
      }
      judge_one(worker, i);
    }
  }

  // On the calling thread: each result in case order, as soon as it and
  // all before it are known. Stops at the first case that could not be
  // judged.
  void report_in_order(const Report& report) {
    for (std::size_t i = 0; i < cases_.size(); ++i) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        finished_.wait(lock, [&] { return results_[i].has_value() || error_; });
        if (!results_[i]) return;
      }
      report(i, *results_[i]);
      std::lock_guard<std::mutex> lock(mutex_);
      reported_ = i + 1;
      finished_.notify_all();
    }
  }

  // Stops every worker at its next case; `error` is rethrown by rethrow().
  void abandon(std::exception_ptr error) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!error_) error_ = error;
    next_shared_ = shared_.size();
    finished_.notify_all();
  }

  void rethrow() {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void judge_one(std::size_t worker, std::size_t index) {
    const TestCase& test = *cases_[index];
    int timeouts_so_far;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      timeouts_so_far = timeouts_;
    }
    TestResult result;
    try {
      result = timeouts_so_far >= kMaxTimeouts ? not_run(test, timeouts_so_far) : judge_(worker, test);
    } catch (...) {
      abandon(std::current_exception());
      return;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (timeouts_so_far < kMaxTimeouts && result.verdict == Verdict::kTimeLimitExceeded) ++timeouts_;
    results_[index] = std::move(result);
    if (!alone_[index]) ++shared_done_;
    finished_.notify_all();
  }

  const std::vector<const TestCase*>& cases_;
  const std::vector<bool>& alone_;
  const Judge& judge_;
  std::vector<std::size_t> shared_;  // indices of the cases that may share the machine
  std::atomic<std::size_t> next_shared_{0};
  std::mutex mutex_;
  std::condition_variable finished_;
  std::vector<std::optional<TestResult>> results_;
  std::size_t shared_done_ = 0;
  std::size_t reported_ = 0;  // cases the calling thread has reported, in order
  int timeouts_ = 0;
  std::exception_ptr error_;
};
}  // namespace

void schedule_cases(const std::vector<const TestCase*>& cases, const std::vector<bool>& alone, std::size_t workers,
                    const std::function<TestResult(std::size_t worker, const TestCase& test)>& judge,
                    const std::function<void(std::size_t index, TestResult& result)>& report,
                    const std::function<void(std::size_t worker)>& start_worker) {
  Schedule schedule(cases, alone, judge);
  workers = std::clamp<std::size_t>(workers, 1, std::max<std::size_t>(schedule.shared_count(), 1));
  std::latch workers_started(static_cast<std::ptrdiff_t>(workers));
  WorkerThreads threads(workers, [&](std::size_t worker) {
    if (start_worker) start_worker(worker);
    workers_started.arrive_and_wait();
    schedule.work(worker);
  });
  try {
    schedule.report_in_order(report);
  } catch (...) {
    schedule.abandon(std::current_exception());  // also stops the first worker before its timed cases
  }
  threads.join();
  schedule.rethrow();
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
