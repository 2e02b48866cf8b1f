// Running the judge binary from a test: its exit status, stdout and stderr.
// The test's target defines JUDGE_BINARY.
#pragma once

#include <poll.h>

#include <chrono>
#include <string>
#include <vector>

#include "sandbox/process.hpp"
#include "util/paths.hpp"

extern char** environ;

namespace judge::testing {

struct JudgeRun {
  int status = -1;  // exit code, or 128 + signal
  std::string out;
  std::string err;
  pid_t pid = -1;       // the judge's process
  long max_rss_kb = 0;  // its peak resident memory (its largest descendant's, if larger)
};

// The test's environment minus what would point the judge elsewhere, plus
// `extra` (NAME=VALUE entries), which replaces inherited variables of the
// same names.
inline std::vector<std::string> judge_environment(const std::vector<std::string>& extra = {}) {
  std::vector<std::string> dropped = {"JUDGE_ROOT=", "JUDGE_WORKSPACE="};
  for (const std::string& variable : extra) dropped.push_back(variable.substr(0, variable.find('=') + 1));
  std::vector<std::string> env;
  for (char** entry = environ; *entry; ++entry) {
    std::string variable = *entry;
    bool drop = false;
    for (const std::string& prefix : dropped) drop = drop || variable.rfind(prefix, 0) == 0;
    if (!drop) env.push_back(variable);
  }
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

// Runs `argv` (a program and its arguments; the judge, or a script that
// runs it) from the repository root and waits for it.
inline JudgeRun run_program(const std::vector<std::string>& argv, const std::vector<std::string>& extra_env = {}) {
  SpawnSpec spec;
  spec.argv = argv;
  spec.env = judge_environment(extra_env);
  spec.working_dir = JUDGE_SOURCE_DIR;
  std::string error;
  std::unique_ptr<Child> child = Child::spawn(spec, &error);
  JudgeRun run;
  if (!child) {
    run.err = error;
    return run;
  }
  CapturedOutput out(16 << 20), err(16 << 20);
  while (!child->poll_exited()) {
    pollfd fds[2] = {{child->stdout_fd(), POLLIN, 0}, {child->stderr_fd(), POLLIN, 0}};
    poll(fds, 2, 50);
    child->drain(&out, &err);
  }
  child->drain(&out, &err);
  ExitStatus status = child->wait();
  run.pid = child->pid();
  run.max_rss_kb = status.max_rss_kb;
  run.status = status.exited ? status.code : 128 + status.signal;
  run.out = out.head;
  run.err = err.head;
  return run;
}

// Runs the judge with `args` from the repository root and waits for it.
inline JudgeRun run_judge(const std::vector<std::string>& args, const std::vector<std::string>& extra_env = {}) {
  std::vector<std::string> argv = {JUDGE_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_program(argv, extra_env);
}

// Reads a running child's output until `done(stdout so far)` holds or
// `timeout_ms` passes; returns whether it held.
template <typename Predicate>
bool read_until(Child& child, CapturedOutput* out, CapturedOutput* err, Predicate done, int timeout_ms) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (std::chrono::steady_clock::now() < deadline) {
    child.drain(out, err);
    if (done(out->head)) return true;
    if (child.poll_exited()) {
      child.drain(out, err);
      return done(out->head);
    }
    pollfd fds[2] = {{child.stdout_fd(), POLLIN, 0}, {child.stderr_fd(), POLLIN, 0}};
    poll(fds, 2, 50);
  }
  return false;
}

}  // namespace judge::testing
