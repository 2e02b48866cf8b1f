// Adapter for the kv_cache problem: attention_step over a KVCache.
//
// Ops that call the learner's code:
//   attention_steps   T steps on one fresh cache; every step's output (T rows)
//   cache_state       the same T steps; then the cache's length, its rows
//                     before length and its rows from length on
//   invalid_call      T valid steps, then one invalid call: whether it threw
//                     std::invalid_argument, and whether the cache is unchanged
//   step_cost         a batch of steps at one cache length, for the judge to time
//   lab_attention     one step on a cache that lives as long as the runner
//                     (judge lab: one cache per layer of a model)
// The trusted oracles (full_attention, expected_cache_state) and every helper
// that does not call the learner are in the harness library; see
// judge_harness/kv_cache_support.hpp.
#include <judge_harness/runner.hpp>

#include <judge/kv_cache.hpp>
#include <judge_harness/input_watch_eigen.hpp>
#include <judge_harness/kv_cache_support.hpp>

#include <algorithm>
#include <exception>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include JUDGE_LEARNER_BINDINGS  // kv_cache.learner.hpp: the learner's functions, compiled apart

namespace {
namespace support = judge_harness::kv_cache_support;
using judge_harness::BadRequest;
using judge_harness::Value;

// One call of the learner's attention_step, with q, k and v watched: it
// receives them by const reference and must leave them as they were.
Eigen::VectorXd watched_step(KVCache& cache, const Eigen::VectorXd& q, const Eigen::VectorXd& k,
                             const Eigen::VectorXd& v, int n_heads) {
  const judge_harness::InputWatch watch_q = judge_harness::watch_eigen("q", q);
  const judge_harness::InputWatch watch_k = judge_harness::watch_eigen("k", k);
  const judge_harness::InputWatch watch_v = judge_harness::watch_eigen("v", v);
  return judge_learner::attention_step(cache, q, k, v, n_heads);
}

// Runs every step on one cache; returns each step's output.
std::vector<Eigen::VectorXd> run_steps(const support::Steps& s, KVCache& cache) {
  std::vector<Eigen::VectorXd> outputs;
  for (int t = 0; t < s.steps(); ++t)
    outputs.push_back(watched_step(cache, support::row(s.q, t), support::row(s.k, t), support::row(s.v, t), s.n_heads));
  return outputs;
}

Value attention_steps_op(const Value& args) {
  support::Steps s = support::read_steps(args);
  KVCache cache(s.capacity, s.n_kv_heads, s.head_dim);
  return support::rows_value(run_steps(s, cache));
}

Value cache_state_op(const Value& args) {
  support::Steps s = support::read_steps(args);
  KVCache cache(s.capacity, s.n_kv_heads, s.head_dim);
  run_steps(s, cache);
  long length = std::max(0, cache.length);
  return Value::map()
      .set("length", Value::integer(cache.length))
      .set("keys_shape", support::shape(cache.keys.rows(), cache.keys.cols()))
      .set("values_shape", support::shape(cache.values.rows(), cache.values.cols()))
      .set("stored_keys", support::leading_rows(cache.keys, length))
      .set("stored_values", support::leading_rows(cache.values, length))
      // Zero-filled when the cache was made; no valid call writes there.
      .set("keys_beyond_length", support::rows_from(cache.keys, length))
      .set("values_beyond_length", support::rows_from(cache.values, length));
}

// T valid steps (the rows of q, k, v), then one invalid call with
// last_n_heads, last_q, last_k, last_v. Reports what the invalid call did
// and whether the cache, everything a caller can see of it, is unchanged.
Value invalid_call_op(const Value& args) {
  support::Steps s = support::read_steps(args);
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
  const support::Snapshot before(cache);
  auto vector = [](const std::vector<double>& x) {
    return Eigen::Map<const Eigen::VectorXd>(x.data(), static_cast<Eigen::Index>(x.size())).eval();
  };
  std::string call;
  try {
    Eigen::VectorXd out = watched_step(cache, vector(q), vector(k), vector(v), last_heads);
    call = "returned " + std::to_string(out.size()) + " numbers instead of throwing";
  } catch (const std::invalid_argument&) {
    call = "threw std::invalid_argument";
  } catch (const std::exception& e) {
    call = "threw " + support::current_exception_type() + " (\"" + e.what() + "\"), not std::invalid_argument";
  } catch (...) {
    call = "threw " + support::current_exception_type() + ", not std::invalid_argument";
  }
  return Value::map()
      .set("last_call", Value::string(call))
      .set("then_the_cache", Value::string(support::describe_change(before, cache)));
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
  if (kv < 1 || d < 1 || n_heads < 1 || length < 0 || batch < 1 || round < 0 || round >= support::kRounds)
    throw BadRequest{"step_cost: bad arguments"};
  support::CostState& state = support::cost_state(n_heads, kv, d, length, batch, seed);
  long double checksum = 0;
  for (int b = 0; b < batch; ++b) {
    const std::size_t i = static_cast<std::size_t>(round) * batch + b;
    state.cache.length = length;
    Eigen::VectorXd out = judge_learner::attention_step(state.cache, state.qs[i], state.ks[i], state.vs[i], n_heads);
    for (long j = 0; j < out.size(); ++j) checksum += out(j);
  }
  return Value::map().set("steps", Value::integer(batch)).set("checksum", Value::number(static_cast<double>(checksum)));
}

// One attention_step on the cache numbered `cache`, kept between requests
// the way a decoder keeps one cache per layer (judge lab). A cache of
// another shape is made anew. Before the step the cache's length is cut to
// `keep` when it is longer: speculative decoding forgets the rejected
// drafts' rows; a length the learner's code did not grow is left as it is.
// Returns the output, then the cache's length and the bytes its matrices
// hold, as the learner's code left them.
Value lab_attention_op(const Value& args) {
  static std::map<int, KVCache> caches;
  const int id = judge_harness::arg_int(args, "cache");
  const int n_heads = judge_harness::arg_int(args, "n_heads");
  const int kv = judge_harness::arg_int(args, "n_kv_heads");
  const int d = judge_harness::arg_int(args, "head_dim");
  const int capacity = judge_harness::arg_int(args, "capacity");
  const int keep = judge_harness::arg_int(args, "keep");
  if (kv < 1 || d < 1 || capacity < 1 || capacity > 1 << 16 || keep < 0 || caches.size() > 64)
    throw BadRequest{"lab_attention: bad arguments"};
  auto it = caches.find(id);
  if (it == caches.end() || it->second.n_kv_heads != kv || it->second.head_dim != d || it->second.capacity != capacity)
    it = caches.insert_or_assign(id, KVCache(capacity, kv, d)).first;
  KVCache& cache = it->second;
  cache.length = std::min(cache.length, keep);
  auto vector = [&](const char* key) {
    const std::vector<double> x = judge_harness::arg_doubles(args, key);
    return Eigen::Map<const Eigen::VectorXd>(x.data(), static_cast<Eigen::Index>(x.size())).eval();
  };
  const Eigen::VectorXd out = watched_step(cache, vector("q"), vector("k"), vector("v"), n_heads);
  const long bytes = static_cast<long>((cache.keys.size() + cache.values.size()) * sizeof(double));
  return Value::map()
      .set("output", Value::doubles(std::vector<double>(out.data(), out.data() + out.size())))
      .set("length", Value::integer(cache.length))
      .set("bytes", Value::integer(bytes));
}

[[maybe_unused]] const bool registered = judge_harness::register_operation("attention_steps", attention_steps_op) &&
                                         judge_harness::register_operation("lab_attention", lab_attention_op) &&
                                         judge_harness::register_operation("cache_state", cache_state_op) &&
                                         judge_harness::register_operation("invalid_call", invalid_call_op) &&
                                         judge_harness::register_operation("step_cost", step_cost_op) &&
                                         support::register_oracles();
}  // namespace
