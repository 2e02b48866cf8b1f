// What the judge reads of a busy machine: run-queue times by process and
// by thread, whether a process is runnable, and the work gate.
#include "sandbox/machine_load.hpp"

#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <memory>

#include <atomic>
#include <chrono>
#include <thread>

namespace judge {
namespace {
using namespace std::chrono_literals;

// Spins on CPU 0 until `stop`, adding its own queue time to *queued.
void spin_on_cpu_zero(std::atomic<bool>* stop, double* queued) {
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(0, &one);
  pthread_setaffinity_np(pthread_self(), sizeof one, &one);
  double start = queued_ms_of_this_thread();
  while (!stop->load()) {
  }
  *queued = queued_ms_of_this_thread() - start;
}

// Two threads that both want CPU 0 for 400 ms: each waits for the other
// about half the time, and the kernel counts it, per thread and in the
// process's total.
TEST(MachineLoad, ThreadsSharingACpuAreCountedAsQueued) {
  ASSERT_GE(queued_ms_of_this_thread(), 0) << "/proc/thread-self/schedstat is not readable here";
  double process_start = queued_ms_of(getpid());
  ASSERT_GE(process_start, 0);
  std::atomic<bool> stop{false};
  double first = 0, second = 0;
  std::thread a(spin_on_cpu_zero, &stop, &first);
  std::thread b(spin_on_cpu_zero, &stop, &second);
  std::this_thread::sleep_for(400ms);
  // Read while they live: the process's total is over its live threads.
  double process_queued = queued_ms_of(getpid()) - process_start;
  stop = true;
  a.join();
  b.join();
  EXPECT_GT(first + second, 100) << "two busy threads on one CPU each waited for the other";
  EXPECT_GT(process_queued, 100);
}

TEST(MachineLoad, ARunningProcessIsRunnableAndASleepingOneIsNot) {
  EXPECT_TRUE(runnable(getpid())) << "this thread is running";
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    pause();
    _exit(0);
  }
  std::this_thread::sleep_for(100ms);
  EXPECT_FALSE(runnable(child)) << "a child in pause() is asleep";
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
}

// Alone waits for shared work to end and keeps new work out; a thread
// that holds the gate alone may start work of its own inside it.
TEST(MachineLoad, WorkAloneWaitsForSharedWorkAndKeepsNewWorkOut) {
  std::atomic<int> order{0};
  std::atomic<int> alone_at{-1}, late_shared_at{-1};
  auto shared = std::make_unique<WorkGate::Shared>();
  std::thread alone([&] {
    WorkGate::Alone gate;
    alone_at = order++;
    WorkGate::Shared inside;  // work inside the retry: no deadlock
    std::this_thread::sleep_for(50ms);
  });
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(alone_at.load(), -1) << "alone started while shared work ran";
  std::thread late([&] {
    WorkGate::Shared gate;
    late_shared_at = order++;
  });
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(late_shared_at.load(), -1) << "new shared work started while alone work waited";
  shared.reset();
  alone.join();
  late.join();
  EXPECT_EQ(alone_at.load(), 0);
  EXPECT_EQ(late_shared_at.load(), 1);
}

}  // namespace
}  // namespace judge
