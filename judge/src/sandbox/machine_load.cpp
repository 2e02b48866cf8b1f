// The work gate, run-queue times and the load average.
#include "sandbox/machine_load.hpp"

#include <unistd.h>

#include <fmt/format.h>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <thread>

#include "util/files.hpp"

namespace judge {
namespace {
std::mutex gate_mutex;
std::condition_variable gate_changed;
int shared_holders = 0;
int alone_waiting = 0;
bool alone_running = false;
thread_local int shared_depth = 0;  // this thread's holds, so that work inside work never waits on itself
}  // namespace

WorkGate::Shared::Shared() {
  if (shared_depth++ > 0) return;
  std::unique_lock<std::mutex> lock(gate_mutex);
  gate_changed.wait(lock, [] { return !alone_running && alone_waiting == 0; });
  ++shared_holders;
}

WorkGate::Shared::~Shared() {
  if (--shared_depth > 0) return;
  std::lock_guard<std::mutex> lock(gate_mutex);
  --shared_holders;
  gate_changed.notify_all();
}

WorkGate::Alone::Alone() {
  std::unique_lock<std::mutex> lock(gate_mutex);
  ++alone_waiting;
  // A thread retrying its own work gave its shared hold back first; one
  // still holding it (retrying inside other work) counts itself out.
  int own = shared_depth > 0 ? 1 : 0;
  gate_changed.wait(lock, [&] { return !alone_running && shared_holders == own; });
  --alone_waiting;
  alone_running = true;
  ++shared_depth;  // work this thread starts inside its retry runs, not waits on itself
}

WorkGate::Alone::~Alone() {
  --shared_depth;
  std::lock_guard<std::mutex> lock(gate_mutex);
  alone_running = false;
  gate_changed.notify_all();
}

double queued_ms_of(pid_t pid) {
  std::error_code error;
  double total_ns = 0;
  bool any = false;
  for (const auto& task : std::filesystem::directory_iterator(fmt::format("/proc/{}/task", pid), error)) {
    std::istringstream fields(read_file_or_empty((task.path() / "schedstat").string()));
    double running_ns = 0, waiting_ns = 0;
    if (fields >> running_ns >> waiting_ns) {
      total_ns += waiting_ns;
      any = true;
    }
  }
  return any ? total_ns / 1e6 : -1;
}

double queued_ms_of_this_thread() {
  std::istringstream fields(read_file_or_empty("/proc/thread-self/schedstat"));
  double running_ns = 0, waiting_ns = 0;
  return fields >> running_ns >> waiting_ns ? waiting_ns / 1e6 : -1;
}

bool runnable(pid_t pid) {
  std::error_code error;
  bool read_any = false;
  for (const auto& task : std::filesystem::directory_iterator(fmt::format("/proc/{}/task", pid), error)) {
    std::string stat = read_file_or_empty((task.path() / "stat").string());
    std::size_t close = stat.rfind(')');
    if (close == std::string::npos || close + 2 >= stat.size()) continue;
    read_any = true;
    if (stat[close + 2] == 'R') return true;
  }
  return !read_any;
}

std::string describe_machine_load() {
  double load[1] = {0};
  std::string text = getloadavg(load, 1) == 1
                         ? fmt::format("load average {:.1f} on {} cores", load[0], std::thread::hardware_concurrency())
                         : fmt::format("{} cores", std::thread::hardware_concurrency());
  std::string pressure = read_file_or_empty("/proc/pressure/cpu");
  double some = 0;
  if (std::sscanf(pressure.c_str(), "some avg10=%lf", &some) == 1)
    text += fmt::format(", CPU pressure {:.0f}% (the last 10 s)", some);
  return text;
}

}  // namespace judge
