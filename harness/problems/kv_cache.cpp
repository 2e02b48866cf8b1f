// Adapter for the kv_cache problem: attention_step over a KVCache.
//
// Ops that call the learner's code:
//   attention_steps   T steps on one fresh cache; every step's output (T rows)
//   cache_state       the same T steps; then the cache's length and rows
//   invalid_call      T valid steps, then one invalid call: whether it threw
//                     std::invalid_argument, and whether the cache is unchanged
//   step_cost         a batch of steps at one cache length, for the judge to time
// Trusted oracles (never call the learner's code):
//   full_attention        each step's output recomputed from scratch
//   expected_cache_state  what the cache must hold after the T steps
#include <judge_harness/runner.hpp>

#include <judge/kv_cache.hpp>

#include <cxxabi.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <stdexcept>
#include <string>
#include <typeinfo>
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

// The dynamic type of the exception being handled, demangled.
std::string current_exception_type() {
  const std::type_info* type = abi::__cxa_current_exception_type();
  if (!type) return "an unknown type";
  int status = 0;
  char* name = abi::__cxa_demangle(type->name(), nullptr, nullptr, &status);
  std::string out = status == 0 && name ? name : type->name();
  std::free(name);
  return out;
}

// Everything a caller can see of a cache, to compare before and after a call.
struct Snapshot {
  int n_kv_heads, head_dim, capacity, length;
  Eigen::MatrixXd keys, values;
  explicit Snapshot(const KVCache& c)
      : n_kv_heads(c.n_kv_heads),
        head_dim(c.head_dim),
        capacity(c.capacity),
        length(c.length),
        keys(c.keys),
        values(c.values) {}
};

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// The rows of `after` that differ from `before` (same shape), as "1" or "1, 3".
std::string changed_rows(const Eigen::MatrixXd& before, const Eigen::MatrixXd& after) {
  std::string rows;
  for (Eigen::Index r = 0; r < before.rows(); ++r) {
    bool changed = false;
    for (Eigen::Index c = 0; c < before.cols() && !changed; ++c) changed = !same_bits(before(r, c), after(r, c));
    if (changed) rows += (rows.empty() ? "" : ", ") + std::to_string(r);
  }
  return rows;
}

std::string matrix_change(const char* name, const Eigen::MatrixXd& before, const Eigen::MatrixXd& after) {
  if (before.rows() != after.rows() || before.cols() != after.cols())
    return std::string(name) + " went from " + std::to_string(before.rows()) + " x " + std::to_string(before.cols()) +
           " to " + std::to_string(after.rows()) + " x " + std::to_string(after.cols());
  std::string rows = changed_rows(before, after);
  if (rows.empty()) return "";
  return std::string(name) + (rows.find(',') == std::string::npos ? " row " : " rows ") + rows + " changed";
}

// "unchanged", or what the call changed in the cache.
std::string describe_change(const Snapshot& before, const KVCache& after) {
  std::vector<std::string> changes;
  auto field = [&](const char* name, int was, int now) {
    if (was != now)
      changes.push_back(std::string(name) + " went from " + std::to_string(was) + " to " + std::to_string(now));
  };
  field("length", before.length, after.length);
  field("capacity", before.capacity, after.capacity);
  field("n_kv_heads", before.n_kv_heads, after.n_kv_heads);
  field("head_dim", before.head_dim, after.head_dim);
  for (std::string change :
       {matrix_change("keys", before.keys, after.keys), matrix_change("values", before.values, after.values)})
    if (!change.empty()) changes.push_back(change);
  if (changes.empty()) return "unchanged";
  std::string out = "changed by the invalid call: ";
  for (std::size_t i = 0; i < changes.size(); ++i) out += (i ? ", " : "") + changes[i];
  return out + " (check every argument before writing to the cache)";
}

// T valid steps (the rows of q, k, v), then one invalid call with
// last_n_heads, last_q, last_k, last_v. Reports what the invalid call did
// and whether the cache, everything a caller can see of it, is unchanged.
Value invalid_call_op(const Value& args) {
  Steps s = read_steps(args);
  const int last_heads = judge_harness::arg_int(args, "last_n_heads");
  const std::vector<double> q = judge_harness::arg_doubles(args, "last_q");
  const std::vector<double> k = judge_harness::arg_doubles(args, "last_k");
  const std::vector<double> v = judge_harness::arg_doubles(args, "last_v");
  // The case must describe an invalid last call (valid steps before it).
  const long width = static_cast<long>(s.n_kv_heads) * s.head_dim;
  const bool valid_last = last_heads > 0 && last_heads % s.n_kv_heads == 0 &&
                          static_cast<long>(q.size()) == static_cast<long>(last_heads) * s.head_dim &&
                          static_cast<long>(k.size()) == width && static_cast<long>(v.size()) == width &&
                          s.steps() < s.capacity;
  if (valid_last) throw BadRequest{"invalid_call: the last call is valid"};
  if (s.steps() > s.capacity) throw BadRequest{"invalid_call: more valid steps than the capacity"};

  KVCache cache(s.capacity, s.n_kv_heads, s.head_dim);
  run_steps(s, cache);
  const Snapshot before(cache);
  auto vector = [](const std::vector<double>& x) {
    return Eigen::Map<const Eigen::VectorXd>(x.data(), static_cast<Eigen::Index>(x.size())).eval();
  };
  std::string call;
  try {
    Eigen::VectorXd out = learner_function(cache, vector(q), vector(k), vector(v), last_heads);
    call = "returned " + std::to_string(out.size()) + " numbers instead of throwing";
  } catch (const std::invalid_argument&) {
    call = "threw std::invalid_argument";
  } catch (const std::exception& e) {
    call = "threw " + current_exception_type() + " (\"" + e.what() + "\"), not std::invalid_argument";
  } catch (...) {
    call = "threw " + current_exception_type() + ", not std::invalid_argument";
  }
  return Value::map()
      .set("last_call", Value::string(call))
      .set("then_the_cache", Value::string(describe_change(before, cache)));
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

// splitmix64, for the cost op's random cache contents.
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

// How many distinct rounds of steps one length offers: no two calls of a
// growth check send the learner's code the same steps, so nothing it
// remembers from one call can make a later one cheap.
constexpr int kRounds = 32;

// What step_cost keeps between calls, so that a call costs only the steps:
// a cache already holding `length` random tokens (written directly, as the
// contract lays them out), with room for one more, and kRounds rounds of
// `batch` (q, k, v) steps.
struct CostState {
  int n_heads = 0, kv = 0, d = 0, length = 0, batch = 0;
  std::uint64_t seed = 0;
  KVCache cache{1, 1, 1};
  std::vector<Eigen::VectorXd> qs, ks, vs;  // kRounds * batch each
  bool matches(int h, int g, int dim, int len, int b, std::uint64_t s) const {
    return n_heads == h && kv == g && d == dim && length == len && batch == b && seed == s;
  }
};

CostState& cost_state(int n_heads, int kv, int d, int length, int batch, std::uint64_t seed) {
  static std::vector<CostState> states;  // one per length of the case: two
  for (CostState& state : states)
    if (state.matches(n_heads, kv, d, length, batch, seed)) return state;
  if (states.size() >= 4) states.clear();
  CostState& state = states.emplace_back();
  state.n_heads = n_heads, state.kv = kv, state.d = d, state.length = length, state.batch = batch, state.seed = seed;
  Stream stream{seed ^ (static_cast<std::uint64_t>(length) << 32)};
  state.cache = KVCache(length + 1, kv, d);
  for (int r = 0; r < length; ++r)
    for (long c = 0; c < state.cache.keys.cols(); ++c)
      state.cache.keys(r, c) = stream.uniform(), state.cache.values(r, c) = stream.uniform();
  for (int i = 0; i < kRounds * batch; ++i) {
    state.qs.push_back(stream.vector(static_cast<long>(n_heads) * d));
    state.ks.push_back(stream.vector(static_cast<long>(kv) * d));
    state.vs.push_back(stream.vector(static_cast<long>(kv) * d));
  }
  return state;
}

// `batch` steps, each on the cache holding `length` tokens (its length is
// reset before every step, so every step costs what one step at `length`
// costs), with the steps of round `round`. Returns the number of steps and
// the sum of every output, which the judge compares with the reference's:
// a fast answer must still be right. The judge times the call from outside.
Value step_cost_op(const Value& args) {
  const int n_heads = judge_harness::arg_int(args, "n_heads");
  const int kv = judge_harness::arg_int(args, "n_kv_heads");
  const int d = judge_harness::arg_int(args, "head_dim");
  const int length = judge_harness::arg_int(args, "length");
  const int batch = judge_harness::arg_int(args, "batch");
  const int round = judge_harness::arg_int(args, "round");
  const std::uint64_t seed = judge_harness::arg_seed(args, "seed");
  if (kv < 1 || d < 1 || n_heads < 1 || length < 0 || batch < 1 || round < 0 || round >= kRounds)
    throw BadRequest{"step_cost: bad arguments"};
  CostState& state = cost_state(n_heads, kv, d, length, batch, seed);
  long double checksum = 0;
  for (int b = 0; b < batch; ++b) {
    const std::size_t i = static_cast<std::size_t>(round) * batch + b;
    state.cache.length = length;
    Eigen::VectorXd out = learner_function(state.cache, state.qs[i], state.ks[i], state.vs[i], n_heads);
    for (long j = 0; j < out.size(); ++j) checksum += out(j);
  }
  return Value::map().set("steps", Value::integer(batch)).set("checksum", Value::number(static_cast<double>(checksum)));
}

[[maybe_unused]] const bool registered =
    judge_harness::register_operation("attention_steps", attention_steps_op) &&
    judge_harness::register_operation("cache_state", cache_state_op) &&
    judge_harness::register_operation("invalid_call", invalid_call_op) &&
    judge_harness::register_operation("step_cost", step_cost_op) &&
    judge_harness::register_operation("full_attention", full_attention_op) &&
    judge_harness::register_operation("expected_cache_state", expected_cache_state_op);
}  // namespace
