// `judge list`: the problems in course order, with the learner's status,
// attempts and best result. A problem whose files are broken is listed
// with its error; the others still are, and the exit status is then 2.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli/command.hpp"
#include "judging/problem_catalog.hpp"
#include "package/result_codec.hpp"
#include "practice/progress_json.hpp"
#include "practice/workspace.hpp"
#include "util/text.hpp"

namespace judge {
namespace {
// "accepted (40/40)", "wrong_answer (12/40)", "compile_error".
std::string result_text(const Attempt& attempt) {
  if (attempt.cases == 0) return verdict_name(attempt.verdict);
  return fmt::format("{} ({}/{})", verdict_name(attempt.verdict), attempt.passed, attempt.cases);
}

class ListCommand : public Command {
 public:
  void define(CLI::App& command) override {
    command.add_option("--format", format_, "output format")->check(CLI::IsMember({"text", "json"}));
  }

  int run(const CommandContext& context) override {
    const Paths& paths = context.paths;
    std::vector<BrokenProblem> broken;
    std::vector<Problem> problems = ProblemCatalog(paths).load_all(&broken);
    if (format_ == "json") {
      nlohmann::json out = nlohmann::json::array();
      for (const Problem& problem : problems) out.push_back(problem_progress_json(paths, problem));
      nlohmann::json errors = nlohmann::json::array();
      for (const BrokenProblem& problem : broken)
        errors.push_back({{"problem", problem.slug}, {"error", problem.error}});
      fmt::print("{}\n", json_text(with_schema_version({{"problems", out}, {"broken", errors}})));
    } else {
      for (const Problem& problem : problems) {
        std::vector<Attempt> attempts = attempts_of(paths, problem.slug);
        std::optional<Attempt> best = best_attempt(attempts);
        std::string record = attempts.empty() ? ""
                                              : fmt::format("{} attempt{}, best {}", attempts.size(),
                                                            attempts.size() == 1 ? "" : "s", result_text(*best));
        std::string line = fmt::format("{:>2}. {:<22} {:<40} {:<12} {}", problem.order, problem.slug, problem.title,
                                       progress_name(progress_of(paths, problem.slug)), record);
        fmt::print("{}\n", line.substr(0, line.find_last_not_of(' ') + 1));
      }
      for (const BrokenProblem& problem : broken)
        fmt::print(" ?. {:<22} broken: {}\n", problem.slug,  // its first line; stderr has the rest
                   terminal_safe(problem.error.substr(0, problem.error.find('\n'))));
    }
    for (const BrokenProblem& problem : broken) fmt::print(stderr, "judge: {}\n", terminal_safe(problem.error));
    return broken.empty() ? 0 : 2;
  }

 private:
  std::string format_ = "text";
};
}  // namespace

std::unique_ptr<Command> make_list_command() { return std::make_unique<ListCommand>(); }

}  // namespace judge
