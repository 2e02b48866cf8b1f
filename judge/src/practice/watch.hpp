// `judge watch PROBLEM [--solution FILE]`: judges the file, then again after
// every save, until Ctrl-C.
//
// Watches the file's directory with inotify (so editors that save by
// writing a new file and renaming it over the old one are seen), reacts to
// a write being closed or a file being moved onto the name, and waits for
// 150 ms of quiet before judging, so one save that touches the file several
// times judges once. A save during a judging judges again when it ends.
// Ctrl-C stops after the case being run (a second Ctrl-C stops at once);
// either way the exit status is 0.
#pragma once

#include <string>

#include "util/paths.hpp"

namespace judge {

struct WatchOptions {
  std::string slug;
  std::string solution_file;  // empty: the workspace file
  bool sanitize = false;
  bool trust_submissions = false;  // another user's file, where the sandbox is not whole (sandbox/sandbox_policy.hpp)
};

// Returns 0 when stopped by Ctrl-C (or SIGTERM). Throws JudgeFault when it
// cannot start: unknown problem, no such file, inotify unavailable.
int watch_and_judge(const Paths& paths, const WatchOptions& options);

}  // namespace judge
