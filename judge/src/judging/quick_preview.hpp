// A first look at a solution while its runner compiles. The learner's file
// is built a second time at -Og (compile/build_runner.hpp's quick build: about two
// thirds of the -O2 compile, on the other core), and the problem's
// few-call cases are judged on that runner in judging order, each result
// reported as soon as it is known: a wrong solution's first failure shows
// before its -O2 runner exists.
//
// A preview decides nothing. The -O2 runner judges every case afterwards,
// as without a preview, and its results are the verdict, the hints and
// every format's report; the text report prints a previewed case again only
// where the -O2 runner judged it otherwise (report/text_reporter.cpp).
//
// The preview runs on a thread of its own, with one learner runner and one
// reference runner that die with it, and only where the reference's runner
// is in the cache: a cold cache has no idle core to spare. stop() ends it wherever it is (its
// compile cancelled, a case in progress killed) and waits for the thread;
// nothing is reported after stop() returns.
#pragma once

#include <chrono>
#include <functional>
#include <future>
#include <mutex>
#include <thread>

#include "compile/build_runner.hpp"
#include "judging/case_scheduler.hpp"
#include "judging/judging.hpp"
#include "package/problem.hpp"
#include "util/cancel_signal.hpp"
#include "util/paths.hpp"

namespace judge {

// A preview's calls may take this many times their limits: -Og code is
// slower, and a preview's time limit is nobody's verdict.
inline constexpr double kPreviewTimeScale = 4.0;
// A preview starts only where the reference's runner came from the cache
// within this long (a compile takes a second or more).
inline constexpr std::chrono::milliseconds kReferenceCachedWithin{200};

class QuickPreview {
 public:
  using Report = std::function<void(const TestResult&)>;

  // Starts at once. `reference` is the reference's build, which the
  // preview waits for before its first case.
  QuickPreview(const Paths& paths, const Problem& problem, const JudgeRequest& request,
               std::shared_future<BuildOutcome> reference, Report report);
  ~QuickPreview();
  QuickPreview(const QuickPreview&) = delete;
  QuickPreview& operator=(const QuickPreview&) = delete;

  void stop();
  // Waits until the preview has judged every case it judges (or could not
  // go on), without stopping it.
  void finish();

 private:
  void run();
  bool stopping();

  const Paths& paths_;
  const Problem& problem_;
  JudgeRequest request_;
  std::shared_future<BuildOutcome> reference_;
  Report report_;
  CancelSignal cancel_;
  std::mutex mutex_;  // guards stopping_, runners_ and every report
  bool stopping_ = false;
  CaseRunners* runners_ = nullptr;  // while a case may run
  std::thread thread_;
};

}  // namespace judge
