// judging_order and schedule_cases: cheap cases first, reports as cases
// finish, parallel shared cases, timed cases alone, the timeout cut-off and
// errors, with a fake judge function.
#include "judging/case_scheduler.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <thread>

#include "check/checker.hpp"

namespace judge {
namespace {
using namespace std::chrono_literals;

struct Cases {
  std::vector<TestCase> storage;
  std::vector<const TestCase*> pointers;
  explicit Cases(std::vector<int> time_limits) {
    for (std::size_t i = 0; i < time_limits.size(); ++i) {
      TestCase test;
      test.name = "case" + std::to_string(i);
      test.time_ms = time_limits[i];
      storage.push_back(test);
    }
    for (const TestCase& test : storage) pointers.push_back(&test);
  }
};

TestResult accepted(const TestCase& test) {
  TestResult result = start_result(test);
  result.verdict = Verdict::kAccepted;
  return result;
}

std::vector<CheckCost> few_calls(std::size_t count) { return std::vector<CheckCost>(count, CheckCost::kFewCalls); }

// Few-call and many-call cases as `alone` says; timed ones where it is true.
std::vector<CheckCost> timed_where(const std::vector<bool>& alone) {
  std::vector<CheckCost> costs;
  for (bool timed : alone) costs.push_back(timed ? CheckCost::kTimed : CheckCost::kFewCalls);
  return costs;
}

TEST(JudgingOrder, CheapCasesFirstSamplesLeadingThenTheLongestStatisticsThenTimedCases) {
  Cases cases({100, 9000, 100, 20000, 100, 5000, 100, 100});
  cases.storage[0].hidden = true;  // a hidden few-call case listed before a sample
  cases.storage[2].hidden = false;
  for (std::size_t i : {4, 6, 7}) cases.storage[i].hidden = true;
  const std::vector<CheckCost> costs = {CheckCost::kFewCalls,  CheckCost::kManyCalls, CheckCost::kFewCalls,
                                        CheckCost::kManyCalls, CheckCost::kTimed,     CheckCost::kManyCalls,
                                        CheckCost::kFewCalls,  CheckCost::kTimed};
  EXPECT_EQ(judging_order(cases.pointers, costs), (std::vector<std::size_t>{2, 0, 6, 3, 1, 5, 4, 7}));
}

TEST(ScheduleCases, ReportsEachCaseAsSoonAsItIsKnown) {
  Cases cases({100, 100, 100, 100, 100, 100});
  std::vector<std::string> reported;
  std::atomic<bool> case0_done{false};
  schedule_cases(
      cases.pointers, few_calls(6), 2,
      [&](std::size_t, const TestCase& test) {
        // The first case is slow: the others, on the other worker, must be
        // reported while it runs.
        if (test.name == "case0") {
          for (int i = 0; i < 2500 && reported.size() < 5; ++i) std::this_thread::sleep_for(2ms);
          case0_done = true;
        }
        return accepted(test);
      },
      [&](std::size_t index, TestResult& result) {
        EXPECT_EQ(result.name, cases.storage[index].name);
        reported.push_back(result.name);
      });
  EXPECT_EQ(reported, (std::vector<std::string>{"case1", "case2", "case3", "case4", "case5", "case0"}));
}

TEST(ScheduleCases, EveryWorkerStartsOnItsOwnThreadBeforeAnyCase) {
  Cases cases({100, 100, 100, 100, 100, 100});
  std::mutex mutex;
  std::map<std::size_t, std::thread::id> started_on;
  std::size_t cases_before_all_started = 0;
  schedule_cases(
      cases.pointers, few_calls(6), 3,
      [&](std::size_t worker, const TestCase& test) {
        std::lock_guard<std::mutex> lock(mutex);
        if (started_on.size() < 3) ++cases_before_all_started;
        auto found = started_on.find(worker);
        EXPECT_TRUE(found != started_on.end() && found->second == std::this_thread::get_id())
            << "worker " << worker << " judged a case on another thread than it started on";
        return accepted(test);
      },
      [](std::size_t, TestResult&) {},
      [&](std::size_t worker) {
        // The first worker to start is slow: the others must wait for it.
        if (worker == 0) std::this_thread::sleep_for(30ms);
        std::lock_guard<std::mutex> lock(mutex);
        started_on.emplace(worker, std::this_thread::get_id());
      });
  EXPECT_EQ(started_on.size(), 3u);
  EXPECT_EQ(cases_before_all_started, 0u);
}

TEST(ScheduleCases, SharedCasesRunAtOnceAndTimedCasesAlone) {
  Cases cases({100, 100, 100, 100, 100});
  const std::vector<bool> alone = {false, true, false, false, false};
  std::atomic<int> in_flight{0};
  std::atomic<bool> overlapped{false}, timed_saw_company{false};
  std::mutex mutex;
  std::map<std::size_t, std::thread::id> thread_of_worker;
  std::vector<std::string> order;
  schedule_cases(
      cases.pointers, timed_where(alone), 2,
      [&](std::size_t worker, const TestCase& test) {
        {
          std::lock_guard<std::mutex> lock(mutex);
          auto [it, inserted] = thread_of_worker.emplace(worker, std::this_thread::get_id());
          EXPECT_EQ(it->second, std::this_thread::get_id()) << "worker " << worker << " changed thread";
          order.push_back(test.name);
        }
        int now = ++in_flight;
        if (test.name == "case1") {
          EXPECT_EQ(worker, 0u) << "timed cases run on the first worker";
          if (now != 1) timed_saw_company = true;
          std::this_thread::sleep_for(20ms);
          if (in_flight != 1) timed_saw_company = true;
        } else if (worker == 0) {
          // Quick, once the other worker is inside a case: the
          // first worker runs out of shared cases while the other
          // is still busy, and must wait for it.
          for (int i = 0; i < 2500 && in_flight < 2; ++i) std::this_thread::sleep_for(2ms);
          if (in_flight >= 2) overlapped = true;
        } else {
          std::this_thread::sleep_for(100ms);
        }
        --in_flight;
        return accepted(test);
      },
      [](std::size_t, TestResult&) {});
  EXPECT_TRUE(overlapped) << "two shared cases never ran at once";
  EXPECT_FALSE(timed_saw_company) << "a timed case shared the machine";
  ASSERT_EQ(order.size(), 5u);
  EXPECT_EQ(order.back(), "case1") << "the timed case runs after every shared case";
}

TEST(ScheduleCases, TimedCasesWaitUntilTheReportIsDone) {
  // Reporting a failure may compile known mistakes for a hint: a timed case
  // must not run meanwhile.
  Cases cases({100, 100, 100});
  const std::vector<bool> alone = {false, false, true};
  std::atomic<bool> reporting{false}, timed_during_report{false};
  schedule_cases(
      cases.pointers, timed_where(alone), 2,
      [&](std::size_t, const TestCase& test) {
        if (test.name == "case2" && reporting) timed_during_report = true;
        return accepted(test);
      },
      [&](std::size_t index, TestResult&) {
        if (index == 2) return;
        reporting = true;
        std::this_thread::sleep_for(30ms);
        reporting = false;
      });
  EXPECT_FALSE(timed_during_report);
}

TEST(ScheduleCases, StartsCasesInJudgingOrder) {
  Cases cases({100, 20000, 100, 5000, 100});
  const std::vector<CheckCost> costs = {CheckCost::kManyCalls, CheckCost::kManyCalls, CheckCost::kFewCalls,
                                        CheckCost::kManyCalls, CheckCost::kTimed};
  std::vector<std::string> started;
  schedule_cases(
      cases.pointers, costs, 1,
      [&](std::size_t, const TestCase& test) {
        started.push_back(test.name);
        return accepted(test);
      },
      [](std::size_t, TestResult&) {});
  EXPECT_EQ(started, (std::vector<std::string>{"case2", "case1", "case3", "case0", "case4"}));
}

TEST(ScheduleCases, StopsRunningCasesAfterThreeTimeouts) {
  Cases cases(std::vector<int>(8, 100));
  int judged = 0;
  std::vector<std::string> messages;
  schedule_cases(
      cases.pointers, few_calls(8), 1,
      [&](std::size_t, const TestCase& test) {
        ++judged;
        TestResult result = start_result(test);
        result.verdict = Verdict::kTimeLimitExceeded;
        result.message = "too slow";
        return result;
      },
      [&](std::size_t, TestResult& result) {
        EXPECT_EQ(result.verdict, Verdict::kTimeLimitExceeded);
        EXPECT_EQ(result.not_run, messages.size() >= 3) << "case " << messages.size();
        messages.push_back(result.message);
      });
  EXPECT_EQ(judged, 3);
  ASSERT_EQ(messages.size(), 8u);
  EXPECT_EQ(messages[2], "too slow");
  EXPECT_EQ(messages[3], "not run: 3 other cases exceeded their time limit");
  EXPECT_EQ(messages[7], "not run: 3 other cases exceeded their time limit");
}

TEST(ScheduleCases, JudgesEveryCaseWhateverTheTimeoutsWhenNoStopIsAsked) {
  // A grade's credit counts every case: a submission slow on some cases
  // still has the others judged.
  Cases cases(std::vector<int>(8, 100));
  int judged = 0;
  std::vector<TestResult> reported;
  schedule_cases(
      cases.pointers, few_calls(8), 1,
      [&](std::size_t, const TestCase& test) {
        TestResult result = start_result(test);
        result.verdict = judged++ % 2 == 0 ? Verdict::kTimeLimitExceeded : Verdict::kAccepted;
        return result;
      },
      [&](std::size_t, TestResult& result) { reported.push_back(result); }, {}, /*max_timeouts=*/0);
  EXPECT_EQ(judged, 8);
  ASSERT_EQ(reported.size(), 8u);
  for (const TestResult& result : reported) EXPECT_FALSE(result.not_run) << result.name << ": " << result.message;
}

TEST(ScheduleCases, ARunnerThatNeverGotReadyStopsTheCasesNotStartedYet) {
  // The second case's runner crashed before main(): the cases after it are
  // reported with its verdict and kind, and not judged.
  Cases cases(std::vector<int>(6, 100));
  int judged = 0;
  std::vector<TestResult> reported;
  schedule_cases(
      cases.pointers, few_calls(6), 1,
      [&](std::size_t, const TestCase& test) {
        TestResult result = start_result(test);
        if (judged++ == 1) {
          result.verdict = Verdict::kRuntimeError;
          result.failure_kind = "signal:6";
          result.runner_never_ready = true;
        }
        return result;
      },
      [&](std::size_t, TestResult& result) { reported.push_back(result); });
  EXPECT_EQ(judged, 2);
  ASSERT_EQ(reported.size(), 6u);
  EXPECT_EQ(reported[0].verdict, Verdict::kAccepted);
  EXPECT_FALSE(reported[1].not_run) << "the case whose runner never got ready ran";
  for (std::size_t i = 2; i < 6; ++i) {
    EXPECT_TRUE(reported[i].not_run);
    EXPECT_EQ(reported[i].verdict, Verdict::kRuntimeError);
    EXPECT_EQ(reported[i].failure_kind, "signal:6");
    EXPECT_EQ(reported[i].message,
              "not run: in case case1 your runner ended before it could serve any case (in static "
              "initialization, before main), as it would again");
  }
}

TEST(ScheduleCases, AJudgeFaultStopsTheRunAndReachesTheCaller) {
  Cases cases(std::vector<int>(20, 100));
  std::vector<bool> alone(20, false);
  alone[19] = true;
  std::atomic<bool> timed_case_ran{false};
  std::atomic<int> started_after_fault{0};
  std::atomic<bool> faulted{false};
  std::size_t reported = 0;
  EXPECT_THROW(schedule_cases(
                   cases.pointers, timed_where(alone), 2,
                   [&](std::size_t, const TestCase& test) {
                     if (faulted) ++started_after_fault;
                     if (test.name == "case19") timed_case_ran = true;
                     if (test.name == "case4") {
                       faulted = true;
                       throw JudgeFault{"the reference failed"};
                     }
                     std::this_thread::sleep_for(2ms);
                     return accepted(test);
                   },
                   [&](std::size_t index, TestResult&) {
                     EXPECT_NE(index, 4u) << "the case that could not be judged was reported";
                     ++reported;
                   }),
               JudgeFault);
  EXPECT_LE(reported, 5u) << "cases finished after the fault were reported";
  EXPECT_LE(started_after_fault.load(), 1) << "the other worker went on after the fault";
  EXPECT_FALSE(timed_case_ran) << "the timed case ran after a fault";
}

TEST(ScheduleCases, AnErrorWhileReportingStopsTheWorkers) {
  Cases cases(std::vector<int>(50, 100));
  std::vector<bool> alone(50, false);
  alone[49] = true;  // the first worker waits for it: the error must wake it
  std::atomic<int> judged{0};
  EXPECT_THROW(schedule_cases(
                   cases.pointers, timed_where(alone), 2,
                   [&](std::size_t, const TestCase& test) {
                     ++judged;
                     std::this_thread::sleep_for(5ms);
                     return accepted(test);
                   },
                   [](std::size_t index, TestResult&) {
                     if (index == 1) throw std::runtime_error("the terminal went away");
                   }),
               std::runtime_error);
  EXPECT_LT(judged.load(), 50) << "the workers went on after the caller gave up";
}

TEST(ScheduleCases, AnErrorWhileReportingWakesTheWorkerWaitingForATimedCase) {
  // Every shared case is done and the first worker waits for the reporter
  // to go idle before the timed case; the report throws instead.
  Cases cases({100, 100, 100});
  std::atomic<bool> timed_case_ran{false};
  EXPECT_THROW(schedule_cases(
                   cases.pointers, timed_where({false, false, true}), 2,
                   [&](std::size_t, const TestCase& test) {
                     if (test.name == "case2") timed_case_ran = true;
                     return accepted(test);
                   },
                   [](std::size_t index, TestResult&) {
                     if (index != 1) return;
                     std::this_thread::sleep_for(50ms);
                     throw std::runtime_error("the terminal went away");
                   }),
               std::runtime_error);
  EXPECT_FALSE(timed_case_ran);
}

}  // namespace
}  // namespace judge
