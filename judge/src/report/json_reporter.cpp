// `--format json`: one object per problem in the public result form
// (package/result_codec.hpp), printed at the end.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "package/result_codec.hpp"
#include "report/reporter.hpp"

namespace judge {
namespace {
class JsonReporter : public Reporter {
 public:
  explicit JsonReporter(std::FILE* out) : out_(out) {}
  void begin_problem(const Problem&, const std::string&) override {}
  void case_finished(const TestResult&) override {}
  void problem_finished(const ProblemResult& result) override {
    results_.push_back(result_to_json(result, ResultForm::kPublic));
  }
  void not_started(const std::vector<std::string>& slugs) override { not_started_ = slugs; }
  void finish(bool several) override {
    nlohmann::json out = several ? nlohmann::json{{"results", results_}}
                                 : (results_.empty() ? nlohmann::json::object() : results_.front());
    if (several) out["not_started"] = not_started_;
    fmt::print(out_, "{}\n", json_text(with_schema_version(out)));
    std::fflush(out_);
  }

 private:
  std::FILE* out_;
  nlohmann::json results_ = nlohmann::json::array();
  std::vector<std::string> not_started_;
};
}  // namespace

std::unique_ptr<Reporter> make_json_reporter(std::FILE* out) { return std::make_unique<JsonReporter>(out); }

}  // namespace judge
