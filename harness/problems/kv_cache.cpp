// Adapter for the kv_cache problem: attention_step over a KVCache.
//
// Ops that call the learner's code:
//   attention_steps   T steps on one fresh cache; every step's output (T rows)
//   cache_state       the same T steps; then the cache's length and rows
//   step_timing       CPU time per step at a few cache lengths
// Trusted oracles (never call the learner's code):
//   full_attention        each step's output recomputed from scratch
//   expected_cache_state  what the cache must hold after the T steps
#include <judge_harness/runner.hpp>

#include <judge/kv_cache.hpp>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <limits>
#include <vector>

#include JUDGE_SOLUTION

namespace {
using judge_harness::BadRequest;
using judge_harness::Value;

// The contract's signature, exactly: a solution with another one does not compile.
using Signature = Eigen::VectorXd(KVCache& cache, const Eigen::VectorXd& q, const Eigen::VectorXd& k,
                                  const Eigen::VectorXd& v, int n_heads);
Signature* const learner_function = &attention_step;

struct Steps {
  int n_heads = 0, n_kv_heads = 0, head_dim = 0, capacity = 0;
  judge_harness::Matrix q, k, v;  // one row per step
  int steps() const { return q.rows; }
};

Steps read_steps(const Value& args) {
  Steps s;
  s.n_heads = judge_harness::arg_int(args, "n_heads");
  s.n_kv_heads = judge_harness::arg_int(args, "n_kv_heads");
  s.head_dim = judge_harness::arg_int(args, "head_dim");
  s.capacity = judge_harness::arg_int(args, "capacity");
  s.q = judge_harness::arg_matrix(args, "q");
  s.k = judge_harness::arg_matrix(args, "k");
  s.v = judge_harness::arg_matrix(args, "v");
  if (s.k.rows != s.q.rows || s.v.rows != s.q.rows) throw BadRequest{"q, k and v need one row per step"};
  if (s.capacity < 0 || s.n_kv_heads < 1 || s.head_dim < 1) throw BadRequest{"bad cache dimensions"};
  return s;
}

Eigen::VectorXd row(const judge_harness::Matrix& m, int r) {
  Eigen::VectorXd out(m.cols);
  for (int c = 0; c < m.cols; ++c) out(c) = m.data[static_cast<std::size_t>(r) * m.cols + c];
  return out;
}

// Runs every step on one cache; returns each step's output.
std::vector<Eigen::VectorXd> run_steps(const Steps& s, KVCache& cache) {
  std::vector<Eigen::VectorXd> outputs;
  for (int t = 0; t < s.steps(); ++t)
    outputs.push_back(learner_function(cache, row(s.q, t), row(s.k, t), row(s.v, t), s.n_heads));
  return outputs;
}

Value rows_value(const std::vector<Eigen::VectorXd>& rows) {
  Value out = Value::list();
  for (const Eigen::VectorXd& r : rows) out.push(Value::doubles(std::vector<double>(r.data(), r.data() + r.size())));
  return out;
}

Value attention_steps_op(const Value& args) {
  Steps s = read_steps(args);
  KVCache cache(s.capacity, s.n_kv_heads, s.head_dim);
  return rows_value(run_steps(s, cache));
}

// The first `rows` rows of `m` (fewer if it has fewer), as a matrix value.
Value leading_rows(const Eigen::MatrixXd& m, long rows) {
  Value out = Value::list();
  for (long r = 0; r < std::min<long>(rows, m.rows()); ++r) {
    std::vector<double> values(static_cast<std::size_t>(m.cols()));
    for (long c = 0; c < m.cols(); ++c) values[static_cast<std::size_t>(c)] = m(r, c);
    out.push(Value::doubles(std::move(values)));
  }
  return out;
}

Value shape(long rows, long cols) { return Value::list().push(Value::integer(rows)).push(Value::integer(cols)); }

Value cache_state_op(const Value& args) {
  Steps s = read_steps(args);
  KVCache cache(s.capacity, s.n_kv_heads, s.head_dim);
  run_steps(s, cache);
  long length = std::max(0, cache.length);
  return Value::map()
      .set("length", Value::integer(cache.length))
      .set("keys_shape", shape(cache.keys.rows(), cache.keys.cols()))
      .set("values_shape", shape(cache.values.rows(), cache.values.cols()))
      .set("stored_keys", leading_rows(cache.keys, length))
      .set("stored_values", leading_rows(cache.values, length));
}

Value expected_cache_state_op(const Value& args) {
  Steps s = read_steps(args);
  long width = static_cast<long>(s.n_kv_heads) * s.head_dim;
  if (s.k.cols != width || s.v.cols != width || s.steps() > s.capacity)
    throw BadRequest{"expected_cache_state needs a valid case"};
  Eigen::MatrixXd keys(s.steps(), width), values(s.steps(), width);
  for (int t = 0; t < s.steps(); ++t) keys.row(t) = row(s.k, t).transpose(), values.row(t) = row(s.v, t).transpose();
  return Value::map()
      .set("length", Value::integer(s.steps()))
      .set("keys_shape", shape(s.capacity, width))
      .set("values_shape", shape(s.capacity, width))
      .set("stored_keys", leading_rows(keys, s.steps()))
      .set("stored_values", leading_rows(values, s.steps()));
}

// Causal attention from scratch: step t attends over the keys and values of
// tokens 0..t, every head on its own, in long double.
Value full_attention_op(const Value& args) {
  Steps s = read_steps(args);
  const int d = s.head_dim, kv = s.n_kv_heads;
  if (s.n_heads < 1 || s.n_heads % kv != 0 || s.q.cols != s.n_heads * d || s.k.cols != kv * d || s.v.cols != kv * d ||
      s.steps() > s.capacity)
    throw BadRequest{"full_attention needs a valid case"};
  const int group = s.n_heads / kv;
  const long double scale = 1.0L / std::sqrt(static_cast<long double>(d));
  auto at = [](const judge_harness::Matrix& m, int r, int c) {
    return static_cast<long double>(m.data[static_cast<std::size_t>(r) * m.cols + c]);
  };
  std::vector<Eigen::VectorXd> outputs;
  for (int t = 0; t < s.steps(); ++t) {
    Eigen::VectorXd out(s.n_heads * d);
    for (int h = 0; h < s.n_heads; ++h) {
      const int g = h / group;
      std::vector<long double> scores(static_cast<std::size_t>(t) + 1);
      long double top = -std::numeric_limits<long double>::infinity();
      for (int j = 0; j <= t; ++j) {
        long double dot = 0;
        for (int i = 0; i < d; ++i) dot += at(s.q, t, h * d + i) * at(s.k, j, g * d + i);
        scores[j] = dot * scale;
        top = std::max(top, scores[j]);
      }
      long double total = 0;
      for (long double& x : scores) total += (x = std::exp(x - top));
      for (int i = 0; i < d; ++i) {
        long double acc = 0;
        for (int j = 0; j <= t; ++j) acc += scores[j] * at(s.v, j, g * d + i);
        out(h * d + i) = static_cast<double>(acc / total);
      }
    }
    outputs.push_back(out);
  }
  return rows_value(outputs);
}

// CPU time of this thread, which runs the learner's code. Not the process
// clock: once RLIMIT_CPU is set (the judge sets it), the kernel serves the
// process clock from a group timer that advances only at scheduler ticks
// (several milliseconds), far too coarse for one short batch.
std::int64_t cpu_ns() {
  timespec ts{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) throw BadRequest{"clock_gettime failed"};
  return static_cast<std::int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// splitmix64, for the timing op's random cache contents.
struct Stream {
  std::uint64_t state;
  double uniform() {  // in [-1, 1)
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * 0x1.0p-52 - 1.0;
  }
  Eigen::VectorXd vector(long n) {
    Eigen::VectorXd out(n);
    for (long i = 0; i < n; ++i) out(i) = uniform();
    return out;
  }
};

// For each length L: a cache already holding L random tokens (written
// directly, as the contract lays them out), then `repeats` timed batches of
// batches[i] steps, the length reset to L before each batch. Returns the CPU
// time per step of every batch, in nanoseconds.
Value step_timing_op(const Value& args) {
  const int n_heads = judge_harness::arg_int(args, "n_heads");
  const int kv = judge_harness::arg_int(args, "n_kv_heads");
  const int d = judge_harness::arg_int(args, "head_dim");
  const std::vector<int> lengths = judge_harness::arg_ints(args, "lengths");
  const std::vector<int> batches = judge_harness::arg_ints(args, "batches");
  const int repeats = judge_harness::arg_int(args, "repeats");
  Stream stream{judge_harness::arg_seed(args, "seed")};
  if (lengths.size() != batches.size() || repeats < 1 || kv < 1 || d < 1 || n_heads < 1)
    throw BadRequest{"step_timing: bad arguments"};
  Value per_length = Value::list();
  volatile double sink = 0;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    const int length = lengths[i], batch = batches[i];
    if (length < 0 || batch < 1) throw BadRequest{"step_timing: bad length or batch"};
    KVCache cache(length + batch, kv, d);
    for (int r = 0; r < length; ++r)
      for (long c = 0; c < cache.keys.cols(); ++c)
        cache.keys(r, c) = stream.uniform(), cache.values(r, c) = stream.uniform();
    std::vector<Eigen::VectorXd> qs, ks, vs;
    for (int b = 0; b < batch; ++b) {
      qs.push_back(stream.vector(static_cast<long>(n_heads) * d));
      ks.push_back(stream.vector(static_cast<long>(kv) * d));
      vs.push_back(stream.vector(static_cast<long>(kv) * d));
    }
    std::vector<double> times;
    for (int rep = -1; rep < repeats; ++rep) {  // rep -1 warms up, untimed
      cache.length = length;
      std::int64_t start = cpu_ns();
      for (int b = 0; b < batch; ++b) {
        Eigen::VectorXd out = learner_function(cache, qs[b], ks[b], vs[b], n_heads);
        if (out.size() > 0) sink = sink + out(0);
      }
      std::int64_t elapsed = cpu_ns() - start;
      if (rep >= 0) times.push_back(static_cast<double>(elapsed) / batch);
    }
    per_length.push(Value::doubles(times));
  }
  return Value::map().set("lengths", Value::ints(lengths)).set("ns_per_step", per_length);
}

[[maybe_unused]] const bool registered =
    judge_harness::register_operation("attention_steps", attention_steps_op) &&
    judge_harness::register_operation("cache_state", cache_state_op) &&
    judge_harness::register_operation("step_timing", step_timing_op) &&
    judge_harness::register_operation("full_attention", full_attention_op) &&
    judge_harness::register_operation("expected_cache_state", expected_cache_state_op);
}  // namespace
