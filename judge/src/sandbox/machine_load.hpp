// What a busy machine does to work that has limits: a compile, a runner's
// call. Limits count CPU time, which load does not change; each also has
// a clock backstop several times longer. Work that reaches its backstop
// having used little of its CPU time was starved by the machine, not slow:
// it is retried once alone (WorkGate), and only a second starvation is a
// judge fault that names the load (describe_machine_load).
#pragma once

#include <sys/types.h>

#include <condition_variable>
#include <mutex>
#include <string>

namespace judge {

// The process's gate for starvable work. Ordinary work holds it shared, a
// retry after starvation holds it alone: it waits until no other work of
// this judge is running and keeps new work waiting until it is done.
class WorkGate {
 public:
  // Held by a compile or a call while it runs; a thread that holds it
  // already (work inside work) does not wait again.
  class Shared {
   public:
    Shared();
    ~Shared();
    Shared(const Shared&) = delete;
    Shared& operator=(const Shared&) = delete;
  };
  // Held by a retry: nothing else of this judge runs meanwhile.
  class Alone {
   public:
    Alone();
    ~Alone();
    Alone(const Alone&) = delete;
    Alone& operator=(const Alone&) = delete;
  };
};

// How long the threads of process `pid` have waited, runnable, for a CPU,
// in milliseconds (the run-queue time of /proc/PID/task/*/schedstat); -1
// where the kernel does not say. The kernel adds a wait when the thread
// next runs: a thread starved outright shows none yet.
double queued_ms_of(pid_t pid);
// The same for the calling thread alone (/proc/thread-self/schedstat): the
// judge's own wait for a CPU before it reads a reply; -1 where unknown.
double queued_ms_of_this_thread();

// Whether any thread of process `pid` is running or runnable (waiting for
// a CPU), rather than asleep or blocked: state R in /proc/PID/task/*/stat.
// True where it cannot be read.
bool runnable(pid_t pid);

// The machine's load in a few words for a message: "load average 25.3 on
// 2 cores, CPU pressure 92% (the last 10 s)".
std::string describe_machine_load();

// How many times its CPU limit a piece of work may take by the clock
// before it is stopped as starved: a runner's call, a compile; and the
// same when it is tried again alone, where it waits three times longer
// (only the machine's other work is beside it then, and it is the last
// chance before a judge fault).
inline constexpr int kCallBackstopFactor = 10;
inline constexpr int kCompileBackstopFactor = 5;
inline constexpr int kAloneBackstopScale = 3;

}  // namespace judge
