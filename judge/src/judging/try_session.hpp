// The runners of one `judge try` and the calls both sides share: the
// learner's through the checkers' handling of unusual calls (so a crash, a
// time limit or an exception reads as it does when judging), the
// reference's through its oracle. Internal to try_run.cpp and try_draws.cpp.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "check/checker.hpp"
#include "check/crash_report.hpp"
#include "check/reference_oracle.hpp"
#include "judging/try_run.hpp"
#include "run/runner_session.hpp"

namespace judge {

class TrySession {
 public:
  // `test` is the case the try stands for: its op, input, tolerance and
  // time limit (the problem's).
  TrySession(const Problem& problem, const TestCase& test, const BuiltRunners& runners,
             const std::string& display_name);

  // The learner's answer to `request`; false, with what happened in *side,
  // when the call did not return a value (a std::invalid_argument that
  // test.expects_invalid_argument asks for included).
  bool learner_call(const Request& request, TrySide* side);

  // The reference's answer: a value, or std::invalid_argument. Throws
  // SpecError when the harness cannot run the request and JudgeFault when
  // the reference fails otherwise.
  TrySide reference_call(const Request& request);

  // `count` seeds, the same on every run: the stream judging uses for a case.
  std::vector<std::uint64_t> seeds(std::size_t count) { return case_seeds(context_, count); }

  TestCase& test() { return test_; }
  const Problem& problem() const { return problem_; }

 private:
  const Problem& problem_;
  TestCase test_;
  ReferenceOracle oracle_;
  RunnerSession learner_;
  CrashContext crash_;
  CheckContext context_;
};

// The sampled modes (try_draws.cpp): draws the op over request.draws seeds
// on both sides and fills the tallies, the side-by-side seeds, determinism
// and the difference of *result. Returns false, having done nothing, when
// the reference rejects the input with std::invalid_argument: then the op
// is to be tried once, by value (try_value).
bool try_draws(TrySession& session, const TryableOp& op, std::int64_t draws, TryResult* result);

// The value mode (try_run.cpp) on `args`: one call each, compared.
void try_value(TrySession& session, const TryableOp& op, const nlohmann::json& args, TryResult* result);

}  // namespace judge
