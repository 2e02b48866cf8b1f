// What the checkers talk to: something that answers requests the way a
// runner does (a RunnerSession, or a fake in tests), and what a call can
// come back with. Nothing here decides a verdict; that is the checkers' job.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "run/wire_format.hpp"
#include "sandbox/limits.hpp"

namespace judge {

struct CallResult {
  enum class Outcome {
    kValue,         // the function returned `value`
    kException,     // the function threw (see exception_kind/type/what)
    kTimeout,       // no reply within the time limit (or the CPU budget); the runner was killed
    kDied,          // the runner ended or closed the channel without replying
    kMalformed,     // something that is not a harness reply came back
    kTooLarge,      // the reply announced more bytes than the request's reply_limit()
    kHarnessError,  // the runner replied that the harness could not run the request
    kNotStarted,    // the judge could not start the runner: a judge fault
    // A busy machine kept the runner from a CPU until the clock's backstop,
    // even when it ran alone: a judge fault that names the load.
    kStarved,
  };
  Outcome outcome = Outcome::kDied;
  // kValue: what the function returned. Its lists of doubles are typed
  // arrays, one byte string each: read them with run/number_list.hpp.
  nlohmann::json value;
  std::string exception_kind;  // "invalid_argument", "bad_alloc" or "other"
  std::string exception_type;  // dynamic type, demangled
  std::string what;
  std::string detail;  // for kDied/kMalformed/kHarnessError/kTimeout: what happened
  double wall_ms = 0;
  // The runner's CPU time for the call, every thread (and process, where a
  // cgroup counts them), from the kernel's accounting; 0 when unknown.
  // Exact for a timed call (the judge waits for the runner to go idle);
  // otherwise as read when the reply arrived.
  double cpu_ms = 0;
  // For a timed call: how long of its wall_ms the runner's threads waited,
  // runnable, for a CPU (the machine's load, not the call's doing).
  double queued_ms = 0;
  bool killed_by_cpu_limit = false;
  int signal = 0;              // kDied: the signal that ended the runner, if any
  long peak_memory_kb = 0;     // kDied: the runner's peak resident memory
  bool out_of_memory = false;  // kDied: the kernel killed it at its memory cgroup's limit
  std::string output;          // what the learner's code printed during the call (head)
  // kValue and kException: the inputs the learner's code received by const
  // reference and changed, as the harness saw them (judge_harness/input_watch.hpp):
  // a list of {input, matrix, entry: [row, col], was, now} or {input, matrix,
  // shape_was, shape_now}; empty when none changed. A fact; checkers decide.
  nlohmann::json changed_inputs = nlohmann::json::array();
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
  // The most bytes a reply may have (kReplyBaseBytes plus kReplyPerRequestByte
  // times the request's size): no op returns more than a few times what it
  // was given, and the judge never buffers a larger reply.
  std::size_t reply_limit() const { return reply_limit_; }
  // Whether the call is timed (performance and growth checks): then the
  // judge waits for the runner to go idle before reading its CPU time
  // (CallResult::cpu_ms), so that it is exact.
  bool timed() const { return timed_; }
  Request& set_timed() {
    timed_ = true;
    return *this;
  }
  // For a timed call: the CPU time after which the runner is stopped
  // (outcome kTimeout, cpu_ms over the budget) even though the call's time
  // limit has not run out; 0 for none. CPU time, not the clock, so that a
  // loaded machine never stops a call early.
  double cpu_budget_ms() const { return cpu_budget_ms_; }
  Request& set_cpu_budget_ms(double budget) {
    cpu_budget_ms_ = budget;
    return *this;
  }

 private:
  std::string op_;
  std::string frame_;
  std::size_t reply_limit_ = 0;
  bool timed_ = false;
  double cpu_budget_ms_ = 0;
};

class Runner {
 public:
  virtual ~Runner() = default;
  // Sends one request and waits for its reply for at most `time_limit_ms`.
  virtual CallResult call(const Request& request, int time_limit_ms) = 0;
  CallResult call(const std::string& op, const nlohmann::json& args, int time_limit_ms) {
    return call(Request(op, args), time_limit_ms);
  }
  // Ends the runner; the next call starts it again. For a caller that found
  // a reply malformed: what the runner writes next would be taken for the
  // next call's reply; and for check 'sequence', whose later calls need a
  // process that kept nothing from earlier ones. Does nothing in a runner
  // without a process (a fake).
  virtual void stop() {}
};

// A request's frame: 4 bytes of little-endian length, then `payload`.
std::string framed(std::string_view payload);

}  // namespace judge
