// The learner's progress as JSON (progress_json.hpp).
#include "practice/progress_json.hpp"

namespace judge {

nlohmann::json attempt_json(const Attempt& attempt) {
  return {{"time", attempt.time},
          {"verdict", verdict_name(attempt.verdict)},
          {"passed", attempt.passed},
          {"cases", attempt.cases},
          {"seconds", attempt.seconds}};
}

nlohmann::json problem_progress_json(const Paths& paths, const Problem& problem) {
  std::vector<Attempt> attempts = attempts_of(paths, problem.slug);
  std::optional<Attempt> best = best_attempt(attempts);
  return {{"problem", problem.slug},     {"title", problem.title},
          {"order", problem.order},      {"status", progress_name(progress_of(paths, problem.slug))},
          {"attempts", attempts.size()}, {"best", best ? attempt_json(*best) : nlohmann::json(nullptr)}};
}

}  // namespace judge
