// The event form of a judging (event_reporter.hpp).
#include "report/event_reporter.hpp"

#include <mutex>

#include "package/result_codec.hpp"

namespace judge {
namespace {
class EventReporter : public Reporter {
 public:
  explicit EventReporter(EventSink sink) : sink_(std::move(sink)) {}

  void begin_problem(const Problem& problem, const std::string& solution_display) override {
    emit("begin", {{"problem", problem.slug}, {"solution", solution_display}, {"cases", problem.cases().size()}});
  }
  void progress(const std::string& what) override { emit("progress", {{"what", what}}); }
  void case_finished(const TestResult& result) override { emit("case", test_to_json(result, ResultForm::kPublic)); }
  void problem_finished(const ProblemResult& result) override {
    emit("result", result_to_json(result, ResultForm::kPublic));
  }
  void finish(bool) override {}

 private:
  // Cases may finish on several runners at once; the sink hears one at a time.
  void emit(const std::string& event, const nlohmann::json& data) {
    std::lock_guard<std::mutex> lock(mutex_);
    sink_(event, data);
  }

  EventSink sink_;
  std::mutex mutex_;
};
}  // namespace

std::unique_ptr<Reporter> make_event_reporter(EventSink sink) {
  return std::make_unique<EventReporter>(std::move(sink));
}

}  // namespace judge
