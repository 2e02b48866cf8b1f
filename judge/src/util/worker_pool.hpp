// Worker threads: the judge's one way of doing several things at once
// (problems of `run --all`, submissions of `grade`, a problem's cases).
#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace judge {

// One per core, at least 1.
std::size_t hardware_workers();

// Threads that each run `body(worker)`, worker = 0 .. count - 1, started at
// construction. join() waits for all of them and rethrows the first
// exception any body let escape; the destructor joins too (and drops such
// an exception), so a scope never leaves running threads behind.
class WorkerThreads {
 public:
  WorkerThreads(std::size_t count, std::function<void(std::size_t worker)> body);
  ~WorkerThreads();
  WorkerThreads(const WorkerThreads&) = delete;
  WorkerThreads& operator=(const WorkerThreads&) = delete;
  void join();

 private:
  std::function<void(std::size_t)> body_;
  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::exception_ptr error_;
};

// Calls `item(index)` once for every index in [0, count), on up to
// `workers` threads (0: hardware_workers()), taking indices in ascending
// order as threads come free. Returns when all are done; rethrows the
// first exception, after which no further index is started.
void for_each_parallel(std::size_t count, std::size_t workers, const std::function<void(std::size_t index)>& item);

}  // namespace judge
