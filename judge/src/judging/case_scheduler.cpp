// schedule_cases: worker threads take the shared cases in judging order;
// the calling thread reports them as they finish. run_cases gives each worker a
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
#include <tuple>

#include "check/checker.hpp"
#include "check/reference_oracle.hpp"
#include "check/registry.hpp"
#include "package/typed_values.hpp"
#include "util/worker_pool.hpp"

namespace judge {
CaseRunners::CaseRunners(const Problem& problem, const CaseRunSetup& setup)
    : oracle(problem, setup.reference_binary), learner(setup.learner_binary, setup.learner_limits) {}

TestResult judge_case(const Problem& problem, const TestCase& listed, const CaseRunSetup& setup, CaseRunners& runners) {
  // The case with its generated inputs expanded, for the checker.
  TestCase test = with_inputs_expanded(listed);
  CheckContext context{problem, test, runners.learner, [&](const std::string& op, const nlohmann::json& args) {
                         return runners.oracle.call(op, args);
                       }};
  context.reference_call = [&](const Request& request) { return runners.oracle.fresh_call(request); };
  context.written_input = &listed.input;
  if (setup.sanitize)
    context.timing_off_reason =
        "speed is not compared with the reference under --sanitize (sanitized code runs 2 to 7 times slower)";
  TestResult result = find_checker(test.check)->run(context);
  result.runner_never_ready = result.verdict != Verdict::kAccepted && runners.learner.ended_before_ready();
  explain_crash(setup.crash, &result);
  if (result.runner_never_ready) result.message += "; it had not reached main() (static initialization)";
  describe_failed_case(listed, &result);
  return result;
}

namespace {
// Beyond a few runners the judge's own work and memory bandwidth dominate.
constexpr unsigned kMaxParallelRunners = 4;

TestResult not_run(const TestCase& test, int timeouts) {
  TestResult result = start_result(test);
  result.verdict = Verdict::kTimeLimitExceeded;
  result.not_run = true;
  result.message = fmt::format("not run: {} other cases exceeded their time limit", timeouts);
  return result;
}

// After a case whose runner never got as far as serving it: the rest would
// fail the same way, at a restart (and for a hang, a time limit) each.
TestResult not_run_after(const TestCase& test, const std::string& failed_case, const TestResult& failed) {
  TestResult result = start_result(test);
  result.verdict = failed.verdict;
  result.failure_kind = failed.failure_kind;
  result.runner_never_ready = true;
  result.not_run = true;
  result.message = fmt::format(
      "not run: in case {} your runner {} before it could serve any case (in static initialization, before "
      "main), as it would again",
      failed_case, failed.verdict == Verdict::kTimeLimitExceeded ? "hung" : "ended");
  return result;
}
}  // namespace

unsigned default_parallel_runners() {
  return static_cast<unsigned>(std::clamp<std::size_t>(hardware_workers(), 1, kMaxParallelRunners));
}

std::vector<std::size_t> judging_order(const std::vector<const TestCase*>& cases, const std::vector<CheckCost>& costs) {
  std::vector<std::size_t> order(cases.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto rank = [&](std::size_t i) {
    // A case's time limit is the best guess of its length.
    int longest_first = costs[i] == CheckCost::kManyCalls ? -cases[i]->time_ms : 0;
    int samples_first = costs[i] == CheckCost::kFewCalls && cases[i]->hidden ? 1 : 0;
    return std::make_tuple(static_cast<int>(costs[i]), longest_first, samples_first);
  };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rank(a) < rank(b); });
  return order;
}

namespace {
// The state schedule_cases shares between its workers and the reporting
// thread, under one mutex.
class Schedule {
 public:
  using Judge = std::function<TestResult(std::size_t worker, const TestCase& test)>;
  using Report = std::function<void(std::size_t index, TestResult& result)>;

  Schedule(const std::vector<const TestCase*>& cases, const std::vector<CheckCost>& costs, const Judge& judge,
           int max_timeouts)
      : cases_(cases), judge_(judge), max_timeouts_(max_timeouts), results_(cases.size()) {
    for (std::size_t i : judging_order(cases, costs)) (costs[i] == CheckCost::kTimed ? timed_ : shared_).push_back(i);
  }

  std::size_t shared_count() const { return shared_.size(); }

  // A worker's life: the shared cases it can take, and for worker 0 (which
  // stays until the end) the timed cases, each once every other case is
  // done and reported, so that neither another runner nor the reporting
  // thread shares the machine with it.
  void work(std::size_t worker) {
    for (std::size_t k; (k = next_shared_++) < shared_.size();) judge_one(worker, shared_[k], /*shared=*/true);
    if (worker != 0) return;
    for (std::size_t i : timed_) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        finished_.wait(lock, [&] { return (shared_done_ == shared_.size() && reported_ == known_.size()) || error_; });
        if (error_) return;
      }
      judge_one(worker, i, /*shared=*/false);
    }
  }

  // On the calling thread: each result as soon as it is known. Stops at the
  // first case that could not be judged.
  void report_as_known(const Report& report) {
    while (reported_ < cases_.size()) {
      std::size_t index;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        finished_.wait(lock, [&] { return reported_ < known_.size() || error_; });
        if (error_) return;
        index = known_[reported_];
      }
      report(index, *results_[index]);
      std::lock_guard<std::mutex> lock(mutex_);
      ++reported_;
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
  void judge_one(std::size_t worker, std::size_t index, bool shared) {
    const TestCase& test = *cases_[index];
    int timeouts_so_far;
    std::optional<std::size_t> never_ready;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      timeouts_so_far = timeouts_;
      never_ready = never_ready_;
    }
    TestResult result;
    try {
      if (never_ready)
        result = not_run_after(test, cases_[*never_ready]->name, *results_[*never_ready]);
      else if (max_timeouts_ > 0 && timeouts_so_far >= max_timeouts_)
        result = not_run(test, timeouts_so_far);
      else
        result = judge_(worker, test);
    } catch (...) {
      abandon(std::current_exception());
      return;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (error_) return;  // nothing after a failure to judge is reported
    if (!never_ready && result.runner_never_ready && !never_ready_) never_ready_ = index;
    if (!result.not_run && result.verdict == Verdict::kTimeLimitExceeded) ++timeouts_;
    results_[index] = std::move(result);
    known_.push_back(index);
    if (shared) ++shared_done_;
    finished_.notify_all();
  }

  const std::vector<const TestCase*>& cases_;
  const Judge& judge_;
  const int max_timeouts_;           // 0: every case is judged
  std::vector<std::size_t> shared_;  // the cases that may share the machine, in judging order
  std::vector<std::size_t> timed_;   // the cases that must run alone, in judging order
  std::atomic<std::size_t> next_shared_{0};
  std::mutex mutex_;
  std::condition_variable finished_;
  std::vector<std::optional<TestResult>> results_;
  std::vector<std::size_t> known_;  // the cases judged so far, in the order they finished
  std::size_t shared_done_ = 0;
  std::size_t reported_ = 0;  // how many of known_ the calling thread has reported
  int timeouts_ = 0;
  std::optional<std::size_t> never_ready_;  // the first case whose runner never got ready
  std::exception_ptr error_;
};
}  // namespace

void schedule_cases(const std::vector<const TestCase*>& cases, const std::vector<CheckCost>& costs, std::size_t workers,
                    const std::function<TestResult(std::size_t worker, const TestCase& test)>& judge,
                    const std::function<void(std::size_t index, TestResult& result)>& report,
                    const std::function<void(std::size_t worker)>& start_worker, int max_timeouts) {
  Schedule schedule(cases, costs, judge, max_timeouts);
  workers = std::clamp<std::size_t>(workers, 1, std::max<std::size_t>(schedule.shared_count(), 1));
  std::latch workers_started(static_cast<std::ptrdiff_t>(workers));
  WorkerThreads threads(workers, [&](std::size_t worker) {
    if (start_worker) start_worker(worker);
    workers_started.arrive_and_wait();
    schedule.work(worker);
  });
  try {
    schedule.report_as_known(report);
  } catch (...) {
    schedule.abandon(std::current_exception());  // also stops the first worker before its timed cases
  }
  threads.join();
  schedule.rethrow();
}

void run_cases(const Problem& problem, const std::vector<const TestCase*>& cases, const CaseRunSetup& setup,
               const std::function<void(std::size_t, TestResult&)>& report) {
  std::vector<CheckCost> costs;
  for (const TestCase* test : cases) costs.push_back(cost_of(*test));
  std::size_t workers = std::max(1u, setup.parallel_runners);
  // Each runner starts on its worker's thread: a runner dies with the thread
  // that started it (PR_SET_PDEATHSIG). All start before any case: they
  // load while the first cases run, and the judge forks them while its heap
  // is small (after a fork, every page the judge writes again costs a page
  // fault, and a case's inputs and expectations are megabytes).
  std::vector<std::unique_ptr<CaseRunners>> runners;
  for (std::size_t i = 0; i < workers; ++i) runners.push_back(std::make_unique<CaseRunners>(problem, setup));
  schedule_cases(
      cases, costs, workers,
      [&](std::size_t worker, const TestCase& test) { return judge_case(problem, test, setup, *runners[worker]); },
      report,
      [&](std::size_t worker) {
        runners[worker]->learner.start_early();
        runners[worker]->oracle.start_early();
      },
      setup.max_timeouts);
}

}  // namespace judge
