// `judge history PROBLEM`: every judged attempt at a problem, oldest first.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli/command.hpp"
#include "judging/problem_catalog.hpp"
#include "package/layout.hpp"
#include "package/result_codec.hpp"
#include "practice/progress_json.hpp"
#include "practice/workspace.hpp"

namespace judge {
namespace {
class HistoryCommand : public Command {
 public:
  void define(CLI::App& command) override {
    command.add_option("PROBLEM", slug_, "problem slug, e.g. top_p")->required();
    command.add_option("--format", format_, "output format")->check(CLI::IsMember({"text", "json"}));
  }

  int run(const CommandContext& context) override {
    Problem problem = ProblemCatalog(context.paths).load(slug_);
    std::vector<Attempt> attempts = attempts_of(context.paths, problem.slug);
    std::string status = progress_name(progress_of(context.paths, problem.slug));
    if (format_ == "json") {
      nlohmann::json list = nlohmann::json::array();
      for (const Attempt& a : attempts) list.push_back(attempt_json(a));
      fmt::print("{}\n",
                 json_text(with_schema_version({{"problem", problem.slug}, {"status", status}, {"attempts", list}})));
      return 0;
    }
    fmt::print("{}: {} attempt{} ({})\n", problem.slug, attempts.size(), attempts.size() == 1 ? "" : "s", status);
    if (attempts.empty()) {
      fmt::print("  nothing judged yet; `judge run {}` judges {}\n", problem.slug,
                 status == "not started" ? "it once `judge start` has made the file" : "your file");
      return 0;
    }
    fmt::print("  {:>3}  {:<20}  {:<21}  {:>7}  {:>7}\n", "#", "when (UTC)", "verdict", "cases", "seconds");
    for (std::size_t i = 0; i < attempts.size(); ++i) {
      const Attempt& a = attempts[i];
      std::string when = a.time;
      if (when.size() == 20) when = when.substr(0, 10) + " " + when.substr(11, 8);
      std::string cases = a.cases ? fmt::format("{}/{}", a.passed, a.cases) : "-";
      fmt::print("  {:>3}  {:<20}  {:<21}  {:>7}  {:>7.2f}\n", i + 1, when, verdict_name(a.verdict), cases, a.seconds);
    }
    return 0;
  }

 private:
  std::string slug_;
  std::string format_ = "text";
};
}  // namespace

std::unique_ptr<Command> make_history_command() { return std::make_unique<HistoryCommand>(); }

}  // namespace judge
