// The kv_cache problem's trusted code, compiled once into the harness
// library: reading the steps of a case, encoding outputs, describing what
// an invalid call changed in a cache, the random caches the cost op times
// steps on, and the two oracles (full_attention, expected_cache_state).
// The adapter a learner's file is compiled with only calls the learner:
// compiling the oracles with every edit took half of a kv_cache build.
#pragma once

#include <judge/kv_cache.hpp>
#include <judge_harness/runner.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace judge_harness::kv_cache_support {

// A case's steps: one row of q, k and v per step, and the cache's shape.
struct Steps {
  int n_heads = 0, n_kv_heads = 0, head_dim = 0, capacity = 0;
  Matrix q, k, v;
  int steps() const { return q.rows; }
};
Steps read_steps(const Value& args);  // throws BadRequest on a malformed case

Eigen::VectorXd row(const Matrix& m, int r);
Value rows_value(const std::vector<Eigen::VectorXd>& rows);
// The first `rows` rows of `m` (fewer if it has fewer), as a list of lists.
Value leading_rows(const Eigen::MatrixXd& m, long rows);
// The rows of `m` from `first` on (none if it has fewer), as a list of lists.
Value rows_from(const Eigen::MatrixXd& m, long first);
Value shape(long rows, long cols);

// The dynamic type of the exception being handled, demangled.
std::string current_exception_type();

// Everything a caller can see of a cache, to compare before and after a call.
struct Snapshot {
  explicit Snapshot(const KVCache& c);
  int n_kv_heads, head_dim, capacity, length;
  Eigen::MatrixXd keys, values;
};
// "unchanged", or what the call changed in the cache.
std::string describe_change(const Snapshot& before, const KVCache& after);

// How many distinct rounds of steps one length offers: no two calls of a
// growth check send the learner's code the same steps, so nothing it
// remembers from one call can make a later one cheap.
inline constexpr int kRounds = 32;

// What step_cost keeps between calls, so that a call costs only the steps:
// a cache already holding `length` random tokens (written directly, as the
// contract lays them out), with room for one more, and kRounds rounds of
// `batch` (q, k, v) steps.
struct CostState {
  int n_heads = 0, kv = 0, d = 0, length = 0, batch = 0;
  std::uint64_t seed = 0;
  KVCache cache{1, 1, 1};
  std::vector<Eigen::VectorXd> qs, ks, vs;  // kRounds * batch each
};
CostState& cost_state(int n_heads, int kv, int d, int length, int batch, std::uint64_t seed);

// Registers full_attention and expected_cache_state; called by the adapter
// (a static library's self-registering objects would be dropped).
bool register_oracles();

}  // namespace judge_harness::kv_cache_support
