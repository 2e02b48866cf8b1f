#include "judging/quick_preview.hpp"

#include "check/registry.hpp"
#include "compile/compile.hpp"
#include "sandbox/limits.hpp"

namespace judge {

QuickPreview::QuickPreview(const Paths& paths, const Problem& problem, const JudgeRequest& request,
                           std::shared_future<BuildOutcome> reference, Report report)
    : paths_(paths),
      problem_(problem),
      request_(request),
      reference_(std::move(reference)),
      report_(std::move(report)) {
  thread_ = std::thread([this] { run(); });
}

QuickPreview::~QuickPreview() { stop(); }

void QuickPreview::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    if (runners_) runners_->learner.interrupt();
  }
  cancel_.raise();
  if (thread_.joinable()) thread_.join();
}

void QuickPreview::finish() {
  if (thread_.joinable()) thread_.join();
}

bool QuickPreview::stopping() {
  std::lock_guard<std::mutex> lock(mutex_);
  return stopping_;
}

void QuickPreview::run() {
  try {
    // A reference still compiling means a cold cache and no idle core: a
    // preview would only slow the -O2 build down.
    if (reference_.wait_for(kReferenceCachedWithin) != std::future_status::ready) return;
    BuildOptions quick;
    quick.quick = true;
    quick.cancel = &cancel_;
    BuildOutcome learner = build_runner(paths_, problem_, request_.solution_file, request_.display_name, quick);
    if (!learner.ok || stopping()) return;
    const BuildOutcome& reference = reference_.get();
    if (!reference.ok || stopping()) return;

    CaseRunSetup setup;
    setup.learner_binary = learner.binary;
    setup.learner_limits = limits_for(problem_, /*sanitize=*/false);
    setup.learner_limits.time_scale *= kPreviewTimeScale;
    setup.reference_binary = reference.binary;
    setup.crash = CrashContext{learner.binary, kCompiledSolutionPath, request_.display_name, kCompileDirectory};
    setup.parallel_runners = 1;

    std::vector<const TestCase*> cases = problem_.cases();
    std::vector<CheckCost> costs;
    for (const TestCase* test : cases) costs.push_back(cost_of(*test));
    CaseRunners runners(problem_, setup);
    // stop() reaches the runners only while they exist: the guard, made
    // after them, forgets them first however this ends.
    struct Published {
      QuickPreview& preview;
      ~Published() {
        std::lock_guard<std::mutex> lock(preview.mutex_);
        preview.runners_ = nullptr;
      }
    } published{*this};
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_) return;
      runners_ = &runners;
    }
    for (std::size_t index : judging_order(cases, costs)) {
      if (costs[index] != CheckCost::kFewCalls) break;  // judging_order puts them first
      TestResult result = judge_case(problem_, *cases[index], setup, runners);
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_) break;
      report_(result);
    }
  } catch (...) {
    // A preview that cannot go on says nothing: the -O2 run judges every
    // case and reports whatever went wrong.
  }
}

}  // namespace judge
