// Answers from the reference solution, run through the same harness in its
// own runner: the expectations of cases that store none, sampler
// distributions, and oracle ops. Each distinct request runs once per
// process and reference binary (the answers are shared by every oracle).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "package/problem.hpp"
#include "run/runner_session.hpp"

namespace judge {

class ReferenceOracle {
 public:
  ReferenceOracle(const Problem& problem, std::string binary);
  // The reference's value for `op` on `args`; throws JudgeFault when the
  // reference does not return one.
  nlohmann::json call(const std::string& op, const nlohmann::json& args);
  // Like call(), but also says how long the reference took (0 when memoized).
  nlohmann::json call_timed(const std::string& op, const nlohmann::json& args, double* wall_ms);
  // Starts the reference's runner ahead of its first call.
  void start_early() { session_.start_early(); }
  // Stops the reference's runner; the next call starts a fresh one (for
  // timing, without what earlier calls used of its CPU and memory limits).
  void stop() { session_.stop(); }
  // Sends `request` afresh (no memo) and returns what came back, however
  // the call ended: for timing, and for telling a learner's claim of a
  // harness error from a real one.
  CallResult fresh_call(const Request& request);

 private:
  const Problem& problem_;
  std::string binary_;
  RunnerSession session_;
};

}  // namespace judge
