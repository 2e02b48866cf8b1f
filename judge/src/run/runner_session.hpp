// Talks to one runner binary: starts it in the sandbox, sends requests,
// reads replies, and turns every way a learner's process can misbehave into
// a CallResult.
#pragma once

#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

#include "run/runner.hpp"
#include "sandbox/limits.hpp"
#include "sandbox/process.hpp"
#include "sandbox/runner_cgroup.hpp"
#include "sandbox/scratch.hpp"

namespace judge {

class RunnerSession : public Runner {
 public:
  RunnerSession(std::string binary, RunnerLimits limits);
  ~RunnerSession() override;
  RunnerSession(const RunnerSession&) = delete;
  RunnerSession& operator=(const RunnerSession&) = delete;

  // Sends one request and waits for its reply. `time_limit_ms` (times the
  // limits' time scale) is CPU time, the runner's whole; by the clock the
  // call may spend twice that asleep or blocked, and kCallBackstopFactor
  // times that in all (sandbox/machine_load.hpp). A call the machine
  // starved until then is tried once more alone (WorkGate::Alone) with a
  // longer backstop, and comes back kStarved only if that starves too. Starts the runner if it
  // is not running (again after a crash or a kill).
  CallResult call(const Request& request, int time_limit_ms) override;
  using Runner::call;

  // Starts the runner now if it is not running, so that it loads while the
  // caller does other work; a failure is reported by the next call, which
  // tries again.
  void start_early();

  // Asks the runner to exit and reaps it; kills it if it does not comply.
  void stop() override;

  // Safe from another thread: kills the runner (a call in progress then
  // ends as if it had died) and refuses to start another, for a session
  // whose results nobody wants any more.
  void interrupt();

  // Whether the last runner process ended (died, or was stopped) before it
  // said it was ready, that is, in the learner's static initializers: a
  // restarted runner would end the same way.
  bool ended_before_ready() const { return ended_before_ready_; }

 private:
  class Exchange;
  CallResult attempt(const Request& request, int time_limit_ms, int backstop_factor);
  bool start(std::string* error);
  void kill_runner();

  std::string binary_;
  RunnerLimits limits_;
  std::unique_ptr<RunnerCgroup> cgroup_;  // made before the child, removed after it
  std::unique_ptr<Child> child_;
  int channel_ = -1;
  std::string nonce_;
  bool ready_ = false;  // the running process has sent its ready frame
  bool ended_before_ready_ = false;
  std::unique_ptr<SandboxScratch> scratch_;  // removed after the child
  // What interrupt() kills: the running child's process group, set while
  // the child is not yet reaped (so its id cannot have been reused).
  std::mutex group_mutex_;
  pid_t group_ = 0;
  bool interrupted_ = false;
};

}  // namespace judge
