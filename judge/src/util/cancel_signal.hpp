// A flag one thread raises and another notices, either by asking or by
// waiting on a descriptor in its poll() loop (sandbox/process.hpp's
// run_command): what stops a compile nobody needs any more.
#pragma once

#include <atomic>

namespace judge {

class CancelSignal {
 public:
  CancelSignal();
  ~CancelSignal();
  CancelSignal(const CancelSignal&) = delete;
  CancelSignal& operator=(const CancelSignal&) = delete;

  // Raises the flag, once and for all; safe from any thread.
  void raise();
  bool raised() const { return raised_.load(); }
  // Readable once the flag is raised; -1 when no pipe could be made (then
  // only raised() tells).
  int fd() const { return pipe_[0]; }

 private:
  int pipe_[2] = {-1, -1};
  std::atomic<bool> raised_{false};
};

}  // namespace judge
