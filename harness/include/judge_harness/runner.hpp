// What a problem adapter includes first. It claims the judge's channel
// before any of the learner's static initializers run (objects in one
// translation unit are initialized in order, and this header comes before
// the solution), and lets the adapter register the operations it serves.
#pragma once

#include <judge_harness/value.hpp>

namespace judge_harness {

// An operation: reads its arguments, calls the learner's code, returns the
// result. Exceptions thrown by the learner's code propagate to the serving
// loop, which reports them to the judge.
using Operation = Value (*)(const Value& args);

// Reads the judge's greeting from the channel. Called once, during static
// initialization; returns true so it can initialize a variable.
bool claim_channel();

// Adds an operation under `name`; returns true so it can initialize a variable.
bool register_operation(const char* name, Operation op);

// Typed readers for the common argument shapes.
double arg_number(const Value& args, const char* key);
int arg_int(const Value& args, const char* key);
std::uint64_t arg_seed(const Value& args, const char* key);
std::vector<double> arg_doubles(const Value& args, const char* key);
std::vector<int> arg_ints(const Value& args, const char* key);
std::vector<std::uint64_t> arg_seeds(const Value& args, const char* key);

// A matrix as rows x cols, row-major.
struct Matrix {
  int rows = 0;
  int cols = 0;
  std::vector<double> data;
};
Matrix arg_matrix(const Value& args, const char* key);
Value matrix_value(int rows, int cols, const std::vector<double>& row_major);

}  // namespace judge_harness

#ifndef JUDGE_HARNESS_LIBRARY_BUILD
namespace {
// Initialized before anything the solution header defines.
[[maybe_unused]] const bool judge_harness_channel_claimed = judge_harness::claim_channel();
}  // namespace
#endif
