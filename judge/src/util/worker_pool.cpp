// WorkerThreads and for_each_parallel.
#include "util/worker_pool.hpp"

#include <algorithm>
#include <atomic>
#include <utility>

namespace judge {

std::size_t hardware_workers() { return std::max(1u, std::thread::hardware_concurrency()); }

WorkerThreads::WorkerThreads(std::size_t count, std::function<void(std::size_t)> body) : body_(std::move(body)) {
  for (std::size_t worker = 0; worker < count; ++worker)
    threads_.emplace_back([this, worker] {
      try {
        body_(worker);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!error_) error_ = std::current_exception();
      }
    });
}

WorkerThreads::~WorkerThreads() {
  for (std::thread& thread : threads_)
    if (thread.joinable()) thread.join();
}

void WorkerThreads::join() {
  for (std::thread& thread : threads_)
    if (thread.joinable()) thread.join();
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void for_each_parallel(std::size_t count, std::size_t workers, const std::function<void(std::size_t)>& item) {
  if (workers == 0) workers = hardware_workers();
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  WorkerThreads threads(std::min(workers, count), [&](std::size_t) {
    for (std::size_t index; !failed && (index = next++) < count;) {
      try {
        item(index);
      } catch (...) {
        failed = true;
        throw;
      }
    }
  });
  threads.join();
}

}  // namespace judge
