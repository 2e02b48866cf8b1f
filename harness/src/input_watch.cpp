// InputWatch: a copy of an argument before the learner's call, compared
// with it after.
#include <judge_harness/input_watch.hpp>

#include <cstring>

namespace judge_harness {
namespace {
std::vector<InputChange>& recorded() {
  static std::vector<InputChange> changes;
  return changes;
}

WatchedNumbers read_doubles(const void* argument) {
  const auto& list = *static_cast<const std::vector<double>*>(argument);
  return WatchedNumbers{false, static_cast<long>(list.size()), 1, list};
}

WatchedNumbers read_ints(const void* argument) {
  const auto& list = *static_cast<const std::vector<int>*>(argument);
  return WatchedNumbers{false, static_cast<long>(list.size()), 1, std::vector<double>(list.begin(), list.end())};
}

// Bit for bit, so that a NaN left alone is unchanged and a -0 written over
// 0 is a change.
bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// The first difference between `before` and `now`, or nothing.
bool first_difference(const char* name, const WatchedNumbers& before, const WatchedNumbers& now, InputChange* change) {
  change->input = name;
  change->matrix = before.matrix;
  if (before.rows != now.rows || before.cols != now.cols) {
    change->shape_changed = true;
    change->rows_was = before.rows, change->cols_was = before.cols;
    change->rows_now = now.rows, change->cols_now = now.cols;
    return true;
  }
  for (std::size_t i = 0; i < before.data.size(); ++i) {
    if (same_bits(before.data[i], now.data[i])) continue;
    const long cols = before.cols > 0 ? before.cols : 1;
    change->row = static_cast<long>(i) / cols;
    change->col = static_cast<long>(i) % cols;
    change->was = before.data[i];
    change->now = now.data[i];
    return true;
  }
  return false;
}
}  // namespace

InputWatch::InputWatch(const char* name, const std::vector<double>& argument)
    : InputWatch(name, &argument, read_doubles) {}

InputWatch::InputWatch(const char* name, const std::vector<int>& argument) : InputWatch(name, &argument, read_ints) {}

InputWatch::InputWatch(const char* name, const void* argument, Read read)
    : name_(name), argument_(argument), read_(read), before_(read(argument)) {}

InputWatch::~InputWatch() {
  try {
    for (const InputChange& change : recorded())
      if (change.input == name_) return;  // the first change of an input is the one to show
    InputChange change;
    if (first_difference(name_, before_, read_(argument_), &change)) recorded().push_back(std::move(change));
  } catch (...) {
    // Out of memory while comparing: nothing is recorded, and the call's
    // own outcome (likely std::bad_alloc too) stands.
  }
}

std::vector<InputChange> take_input_changes() {
  std::vector<InputChange> changes;
  changes.swap(recorded());
  return changes;
}

}  // namespace judge_harness
