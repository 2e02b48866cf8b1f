// Whether the learner's code left as they were the inputs it receives by
// const reference. An adapter watches each such argument for the length of
// a call: an InputWatch copies it first and, when it goes out of scope
// (after the learner's code returned or threw), compares. The first
// difference is recorded as a fact; the serving loop adds the facts of a
// request to its reply ("changed_inputs"), and the judge decides what they
// mean (docs/judging.md, "Inputs stay as they were").
#pragma once

#include <string>
#include <vector>

namespace judge_harness {

// What an argument holds: its shape and its numbers, row by row (integers
// widened to double, which is exact for int).
struct WatchedNumbers {
  bool matrix = false;  // a matrix (rows and columns) rather than a list
  long rows = 0;
  long cols = 0;
  std::vector<double> data;
};

class InputWatch {
 public:
  using Read = WatchedNumbers (*)(const void* argument);
  InputWatch(const char* name, const std::vector<double>& argument);
  InputWatch(const char* name, const std::vector<int>& argument);
  // Any other argument (an Eigen matrix: judge_harness/input_watch_eigen.hpp):
  // `read` says what it holds now.
  InputWatch(const char* name, const void* argument, Read read);
  // Compares, and records a change; never throws.
  ~InputWatch();
  InputWatch(const InputWatch&) = delete;
  InputWatch& operator=(const InputWatch&) = delete;

 private:
  const char* name_;
  const void* argument_;
  Read read_;
  WatchedNumbers before_;
};

// One recorded change: the input's name and, for the first entry that
// differs, where it is and what it was and is; or the shapes, when the
// shape changed.
struct InputChange {
  std::string input;
  bool shape_changed = false;
  long rows_was = 0, cols_was = 0, rows_now = 0, cols_now = 0;
  bool matrix = false;
  long row = 0, col = 0;  // the entry (col 0 for a list)
  double was = 0, now = 0;
};

// The changes recorded since the last take, at most one per input name;
// forgets them. The serving loop takes them before and after each request.
std::vector<InputChange> take_input_changes();

}  // namespace judge_harness
