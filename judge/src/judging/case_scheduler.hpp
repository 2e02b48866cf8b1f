// Runs a problem's cases through their checkers on several runners at once.
// Cases are independent (each call gets its inputs afresh), so a problem's
// cases spread over one learner runner (and one reference runner) per core,
// cheap ones first; cases that time the learner run afterwards, alone on the
// machine.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "check/checker.hpp"
#include "check/crash_report.hpp"
#include "check/reference_oracle.hpp"
#include "package/problem.hpp"
#include "package/verdict.hpp"
#include "run/runner_session.hpp"

namespace judge {

// A learner's run stops after this many time-outs: the verdict is decided,
// and each further time-out would cost a full time limit.
inline constexpr int kDefaultMaxTimeouts = 3;

struct CaseRunSetup {
  std::string learner_binary;
  RunnerLimits learner_limits;
  std::string reference_binary;
  CrashContext crash;             // to explain a learner's crash
  bool sanitize = false;          // speed is not compared under --sanitize
  unsigned parallel_runners = 1;  // learner runners judging cases at once (at least 1)
  // After this many cases exceeded their time limit, the cases not started
  // yet are reported as not run; 0: every case is judged (grading, where a
  // case never run would cost credit it might have earned).
  int max_timeouts = kDefaultMaxTimeouts;
};

// What a case is judged with: a learner runner and a reference runner
// (a runner serves one request at a time, so each worker has its own).
struct CaseRunners {
  CaseRunners(const Problem& problem, const CaseRunSetup& setup);
  ReferenceOracle oracle;
  RunnerSession learner;
};

// Judges `listed` (its generated inputs expanded here) through its checker
// on `runners`: a crash explained, a failure described with the case's
// input as written.
TestResult judge_case(const Problem& problem, const TestCase& listed, const CaseRunSetup& setup, CaseRunners& runners);

// How many runners judge a problem's cases at once when the caller leaves
// it to the judge: one per core, at most kMaxParallelRunners.
unsigned default_parallel_runners();

// The order cases start in: few-call cases first, samples before hidden
// ones, each in case order (the cheapest and most telling failures show at
// once); then many-call cases, longest time limit first (a long case that
// starts last leaves the other cores idle); then timed cases, in case order.
std::vector<std::size_t> judging_order(const std::vector<const TestCase*>& cases, const std::vector<CheckCost>& costs);

// The scheduling alone: `judge(worker, test)` judges one case on worker
// `worker` (0 to workers - 1; each worker is one thread, the same thread for
// all its cases), taking cases in judging_order. kTimed cases run on worker
// 0, one at a time, each once every other case has finished and been
// reported. Reports as run_cases does. `start_worker(worker)`, when given,
// runs first on each worker's thread, and no case starts until it has
// finished on every worker. After `max_timeouts` cases exceeded their time
// limit (0: never), the cases not started yet are reported as not run.
void schedule_cases(const std::vector<const TestCase*>& cases, const std::vector<CheckCost>& costs, std::size_t workers,
                    const std::function<TestResult(std::size_t worker, const TestCase& test)>& judge,
                    const std::function<void(std::size_t index, TestResult& result)>& report,
                    const std::function<void(std::size_t worker)>& start_worker = {},
                    int max_timeouts = kDefaultMaxTimeouts);

// Judges every case of `cases` and calls `report(index, result)` for each,
// on the calling thread, as soon as it is known: in the order cases finish,
// which is close to judging_order. After setup.max_timeouts cases exceeded their time
// limit, cases not yet started are reported as not run. Rethrows a JudgeFault from any case.
void run_cases(const Problem& problem, const std::vector<const TestCase*>& cases, const CaseRunSetup& setup,
               const std::function<void(std::size_t index, TestResult& result)>& report);

}  // namespace judge
