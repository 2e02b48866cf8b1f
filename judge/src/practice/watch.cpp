// judge watch: inotify on the solution's directory, a debounce, a judging
// per save.
#include "practice/watch.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <fmt/format.h>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>

#include "judging/judging.hpp"
#include "judging/problem_catalog.hpp"
#include "judging/shrink.hpp"
#include "package/layout.hpp"
#include "practice/workspace.hpp"
#include "report/reporter.hpp"
#include "sandbox/sandbox_policy.hpp"
#include "util/errors.hpp"
#include "util/terminal.hpp"
#include "util/text.hpp"

namespace judge {
namespace fs = std::filesystem;
namespace {
constexpr int kQuietMs = 150;
constexpr std::uint32_t kSaveEvents = IN_CLOSE_WRITE | IN_MOVED_TO;
constexpr std::uint32_t kDirectoryGone = IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT;

volatile sig_atomic_t stop_requested = 0;
int wake_pipe[2] = {-1, -1};

void on_stop_signal(int) {
  if (stop_requested) _exit(0);  // a second Ctrl-C: at once
  stop_requested = 1;
  char byte = 1;
  [[maybe_unused]] ssize_t n = write(wake_pipe[1], &byte, 1);
}

// Thrown from the judging's callbacks to stop it between cases.
struct Interrupted {};

// The inotify watch on a file's directory.
class DirectoryWatch {
 public:
  explicit DirectoryWatch(const fs::path& file) : name_(file.filename().string()) {
    fd_ = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (fd_ < 0) throw JudgeFault{fmt::format("watch: inotify_init1: {}", std::strerror(errno))};
    std::string dir = file.parent_path().string();
    if (inotify_add_watch(fd_, dir.c_str(), kSaveEvents | kDirectoryGone | IN_ONLYDIR) < 0) {
      int error = errno;
      close(fd_);
      throw JudgeFault{fmt::format("watch: inotify_add_watch {}: {}", display_path(dir), std::strerror(error))};
    }
  }
  ~DirectoryWatch() { close(fd_); }
  DirectoryWatch(const DirectoryWatch&) = delete;
  DirectoryWatch& operator=(const DirectoryWatch&) = delete;

  int fd() const { return fd_; }

  // Reads every pending event; true when one is a save of the file.
  // *gone is set when the directory itself went away.
  bool saved(bool* gone) {
    bool saved = false;
    alignas(inotify_event) char buffer[16384];
    for (;;) {
      ssize_t n = read(fd_, buffer, sizeof buffer);
      if (n <= 0) break;
      for (char* at = buffer; at < buffer + n;) {
        const auto* event = reinterpret_cast<const inotify_event*>(at);
        if (event->mask & (kDirectoryGone | IN_IGNORED)) *gone = true;
        if ((event->mask & kSaveEvents) && event->len > 0 && name_ == event->name) saved = true;
        at += sizeof(inotify_event) + event->len;
      }
    }
    return saved;
  }

 private:
  std::string name_;
  int fd_ = -1;
};

std::string clock_time() {
  std::time_t now = std::time(nullptr);
  char text[16];
  std::strftime(text, sizeof text, "%H:%M:%S", std::localtime(&now));
  return text;
}

class SignalGuard {
 public:
  SignalGuard() {
    if (pipe2(wake_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
      throw JudgeFault{fmt::format("watch: pipe2: {}", std::strerror(errno))};
    struct sigaction action {};
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &old_int_);
    sigaction(SIGTERM, &action, &old_term_);
  }
  ~SignalGuard() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
    close(wake_pipe[0]);
    close(wake_pipe[1]);
  }

 private:
  struct sigaction old_int_ {
  }, old_term_{};
};
}  // namespace

namespace {
// One watching session: the judging on each save, and the waiting between.
class Watcher {
 public:
  Watcher(const Paths& paths, const Problem& problem, const WatchOptions& options, std::string file,
          std::string sandbox_note)
      : paths_(paths),
        problem_(problem),
        options_(options),
        file_(std::move(file)),
        display_(terminal_safe(display_path(file_))),
        sandbox_note_(std::move(sandbox_note)),
        live_(wants_live_progress(stdout)),
        colour_(wants_colour(stdout)) {}

  // Judges once, then after every save, until a stop signal or the
  // directory goes away. Returns the exit status.
  int run() {
    // An editor saves the file the link points to.
    DirectoryWatch watch(fs::weakly_canonical(file_));
    judge_once();
    bool gone = false;
    while (!stop_requested && !gone) {
      if (!wait_for_save(watch, &gone)) break;
      if (!fs::is_regular_file(file_)) {
        fmt::print("{} is gone; waiting for it to be saved again\n", display_);
        std::fflush(stdout);
        continue;
      }
      judge_once();
    }
    if (gone && !stop_requested) {
      fmt::print(stderr, "judge: watch: the directory of {} was removed or moved\n", display_);
      return 2;
    }
    fmt::print("\nstopped watching {}\n", display_);
    return 0;
  }

 private:
  // Waits for a save of the file and then kQuietMs of quiet since the last
  // one. False when stopped or the directory is gone.
  bool wait_for_save(DirectoryWatch& watch, bool* gone) {
    pollfd fds[2] = {{watch.fd(), POLLIN, 0}, {wake_pipe[0], POLLIN, 0}};
    do {
      if (poll(fds, 2, -1) < 0 && errno != EINTR)
        throw JudgeFault{fmt::format("watch: poll: {}", std::strerror(errno))};
      if (stop_requested) return false;
    } while (!watch.saved(gone) && !*gone);
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kQuietMs);
    for (;;) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0 || stop_requested || *gone) break;
      if (poll(fds, 2, static_cast<int>(left.count())) > 0 && watch.saved(gone))
        deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kQuietMs);
    }
    return !stop_requested && !*gone;
  }

  void judge_once() {
    if (live_) clear_screen(stdout);  // a fresh screen per save
    fmt::print("[{}] ", clock_time());
    std::unique_ptr<Reporter> reporter = make_text_reporter(stdout, colour_, live_);
    JudgeRequest request;
    request.solution_file = file_;
    request.display_name = display_;
    request.sanitize = options_.sanitize;
    request.shrink_budget_ms = kDefaultShrinkBudgetMs;
    request.on_case = [&](const TestResult& result) {
      if (stop_requested) throw Interrupted{};
      reporter->case_finished(result);
    };
    request.on_progress = [&](const std::string& what) {
      if (stop_requested) throw Interrupted{};
      reporter->progress(what);
    };
    // On the preview's thread, while this one waits for the compile: the
    // compile's end notices a Ctrl-C.
    request.on_preview = [&](const TestResult& result) {
      if (!stop_requested) reporter->case_previewed(result);
    };
    reporter->begin_problem(problem_, display_);
    try {
      auto started = std::chrono::steady_clock::now();
      ProblemResult result = judge_solution(paths_, problem_, request);
      std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
      result.sandbox_note = sandbox_note_;
      reporter->problem_finished(result);
      reporter->finish(false);
      if (options_.solution_file.empty())
        say_attempt_not_recorded(record_attempt(paths_, problem_.slug, result, took.count()));
    } catch (const Interrupted&) {
      fmt::print("\ninterrupted\n");
    } catch (const JudgeFault& fault) {
      fmt::print(stderr, "judge: {}\n", fault.message);  // e.g. the compiler went missing: keep watching
    }
    if (!stop_requested) fmt::print("\nwatching {} (save to judge again, Ctrl-C to stop)\n", display_);
    std::fflush(stdout);
  }

  const Paths& paths_;
  const Problem& problem_;
  const WatchOptions& options_;
  std::string file_, display_;
  std::string sandbox_note_;  // what the sandbox lacks here, said with every verdict
  bool live_, colour_;
};
}  // namespace

int watch_and_judge(const Paths& paths, const WatchOptions& options) {
  Problem problem = ProblemCatalog(paths).load(options.slug);
  bool own_file = options.solution_file.empty();
  std::string file = own_file ? workspace_file(paths, problem.slug) : options.solution_file;
  if (!fs::is_regular_file(file))
    throw JudgeFault{
        own_file ? fmt::format("{}: no solution yet; run `judge start {}` first", display_path(file), problem.slug)
                 : fmt::format("watch: no such file '{}'", display_path(file))};
  std::string note = check_sandbox_for("watch", owned_by_someone_else(file), options.trust_submissions);
  stop_requested = 0;
  SignalGuard signals;
  return Watcher(paths, problem, options, file, note).run();
}

}  // namespace judge
