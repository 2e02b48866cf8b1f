// The termination cleanup thread and its registries.
#include "sandbox/cleanup.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <set>
#include <thread>

namespace judge {
namespace {
struct Registry {
  std::mutex mutex;
  std::set<pid_t> groups;
  std::set<std::string> cgroups;
  std::set<std::string> scratch_dirs;
};

Registry& registry() {
  static Registry* instance = new Registry;  // never destroyed: the cleanup thread may run during exit
  return *instance;
}

int signal_pipe[2] = {-1, -1};
std::atomic<bool> terminating{false};

void on_termination_signal(int signal_number) {
  terminating = true;
  unsigned char byte = static_cast<unsigned char>(signal_number);
  [[maybe_unused]] ssize_t n = write(signal_pipe[1], &byte, 1);
}

// At exit: once a termination signal has come, the judge ends by it. The
// main thread, seeing its children killed by the cleanup, may reach the
// end of main first; it waits here for the cleanup thread's raise().
void wait_for_the_signal() {
  while (terminating) pause();
}

// Kills what runs, removes what is left, then ends the process by `signal_number`.
[[noreturn]] void clean_up_and_end(int signal_number) {
  Registry& r = registry();
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    for (pid_t group : r.groups) kill(-group, SIGKILL);
    // A cgroup can be removed once its processes are gone, a moment after the kill.
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    for (const std::string& cgroup : r.cgroups)
      while (rmdir(cgroup.c_str()) != 0 && errno == EBUSY && std::chrono::steady_clock::now() < deadline) usleep(2000);
    for (const std::string& dir : r.scratch_dirs) {
      std::error_code ignored;
      std::filesystem::remove_all(dir, ignored);
    }
    // Still holding the lock: a thread that would register or unregister
    // something waits for the end.
    signal(signal_number, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signal_number);
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
    raise(signal_number);
    _exit(128 + signal_number);
  }
}

void watch_for_signals() {
  unsigned char byte = 0;
  ssize_t n;
  do n = read(signal_pipe[0], &byte, 1);
  while (n < 0 && errno == EINTR);
  if (n == 1) clean_up_and_end(byte);
}

template <typename T>
void insert(std::set<T> Registry::*set, const T& value) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  (r.*set).insert(value);
}

template <typename T>
void erase(std::set<T> Registry::*set, const T& value) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  (r.*set).erase(value);
}
}  // namespace

void install_termination_cleanup() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (pipe2(signal_pipe, O_CLOEXEC) != 0) return;
    std::thread(watch_for_signals).detach();
    std::atexit(wait_for_the_signal);
    struct sigaction action {};
    action.sa_handler = on_termination_signal;
    sigemptyset(&action.sa_mask);
    for (int signal_number : {SIGINT, SIGTERM, SIGHUP}) sigaction(signal_number, &action, nullptr);
  });
}

void register_process_group(pid_t group) { insert(&Registry::groups, group); }
void unregister_process_group(pid_t group) { erase(&Registry::groups, group); }
void register_cgroup(const std::string& directory) { insert(&Registry::cgroups, directory); }
void unregister_cgroup(const std::string& directory) { erase(&Registry::cgroups, directory); }
void register_scratch_dir(const std::string& directory) { insert(&Registry::scratch_dirs, directory); }
void unregister_scratch_dir(const std::string& directory) { erase(&Registry::scratch_dirs, directory); }

}  // namespace judge
