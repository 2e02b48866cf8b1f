// Talks to one runner binary: starts it, sends requests, reads replies, and
// turns every way a learner's process can misbehave into a CallResult.
// Nothing here decides a verdict; that is the checkers' job.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "memory_cgroup.hpp"
#include "process.hpp"

namespace judge {

struct RunnerLimits {
  // The runner's memory: a memory cgroup's limit where the machine allows
  // one (memory_cgroup.hpp), otherwise its address space (RLIMIT_AS) when
  // `address_space_limit`. 0: unlimited.
  std::uint64_t memory_bytes = 1ull << 30;
  bool address_space_limit = true;  // false for sanitized runners (ASan reserves terabytes)
  int cpu_seconds = 60;                     // for the whole session, a backstop
  std::uint64_t file_size_bytes = 16ull << 20;
  int grace_ms = 100;                       // SIGTERM, then SIGKILL after this
  // Added to the runner's clean environment ("NAME=value"): sanitizer options.
  std::vector<std::string> extra_env;
  // Multiplies every call's time limit: sanitized runners are slower.
  double time_scale = 1.0;
};

struct CallResult {
  enum class Outcome {
    kValue,         // the function returned `value`
    kException,     // the function threw (see exception_kind/type/what)
    kTimeout,       // no reply within the time limit; the runner was killed
    kDied,          // the runner ended or closed the channel without replying
    kMalformed,     // something that is not a harness reply came back
    kHarnessError,  // the harness could not understand the request: a judge fault
  };
  Outcome outcome = Outcome::kDied;
  nlohmann::json value;
  std::string exception_kind;  // "invalid_argument", "bad_alloc" or "other"
  std::string exception_type;  // dynamic type, demangled
  std::string what;
  std::string detail;          // for kDied/kMalformed/kHarnessError/kTimeout: what happened
  double wall_ms = 0;
  double cpu_ms = 0;           // as measured inside the runner; 0 when unknown
  bool killed_by_cpu_limit = false;
  int signal = 0;              // kDied: the signal that ended the runner, if any
  long peak_memory_kb = 0;     // kDied: the runner's peak resident memory
  bool out_of_memory = false;  // kDied: the kernel killed it at its memory cgroup's limit
  std::string output;          // what the learner's code printed during the call (head)
};

// One request, encoded for the wire once: a case that sends the same input
// many times (a performance check calls the learner and the reference five
// times each) pays once for turning megabytes of numbers into CBOR.
class Request {
 public:
  Request(std::string op, const nlohmann::json& args);
  const std::string& op() const { return op_; }
  // The length-prefixed CBOR frame, as sent.
  const std::string& frame() const { return frame_; }

 private:
  std::string op_;
  std::string frame_;
};

class RunnerSession {
 public:
  RunnerSession(std::string binary, RunnerLimits limits);
  ~RunnerSession();
  RunnerSession(const RunnerSession&) = delete;
  RunnerSession& operator=(const RunnerSession&) = delete;

  // Sends one request and waits for its reply for at most `time_limit_ms`.
  // Starts the runner if it is not running (again after a crash or a kill).
  CallResult call(const Request& request, int time_limit_ms);
  CallResult call(const std::string& op, const nlohmann::json& args, int time_limit_ms);

  // Starts the runner now if it is not running, so that it loads while the
  // caller does other work; a failure is reported by the next call, which
  // tries again.
  void start_early();

  // Asks the runner to exit and reaps it; kills it if it does not comply.
  void stop();

  // Total bytes the learner's code printed so far (stdout + stderr).
  std::uint64_t output_bytes() const { return output_bytes_; }

 private:
  bool start(std::string* error);
  void kill_runner();

  std::string binary_;
  RunnerLimits limits_;
  std::unique_ptr<MemoryCgroup> cgroup_;  // made before the child, removed after it
  std::unique_ptr<Child> child_;
  int channel_ = -1;
  std::string nonce_;
  std::string scratch_dir_;
  std::uint64_t output_bytes_ = 0;
};

}  // namespace judge
