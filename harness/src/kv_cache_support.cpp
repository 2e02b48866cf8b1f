// The kv_cache problem's trusted code (see kv_cache_support.hpp).
#include <judge_harness/kv_cache_support.hpp>

#include <cxxabi.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <typeinfo>

namespace judge_harness::kv_cache_support {

Steps read_steps(const Value& args) {
  Steps s;
  s.n_heads = arg_int(args, "n_heads");
  s.n_kv_heads = arg_int(args, "n_kv_heads");
  s.head_dim = arg_int(args, "head_dim");
  s.capacity = arg_int(args, "capacity");
  s.q = arg_matrix(args, "q");
  s.k = arg_matrix(args, "k");
  s.v = arg_matrix(args, "v");
  if (s.k.rows != s.q.rows || s.v.rows != s.q.rows) throw BadRequest{"q, k and v need one row per step"};
  if (s.capacity < 0 || s.n_kv_heads < 1 || s.head_dim < 1) throw BadRequest{"bad cache dimensions"};
  return s;
}

Eigen::VectorXd row(const Matrix& m, int r) {
  Eigen::VectorXd out(m.cols);
  for (int c = 0; c < m.cols; ++c) out(c) = m.data[static_cast<std::size_t>(r) * m.cols + c];
  return out;
}

Value rows_value(const std::vector<Eigen::VectorXd>& rows) {
  Value out = Value::list();
  for (const Eigen::VectorXd& r : rows) out.push(Value::doubles(std::vector<double>(r.data(), r.data() + r.size())));
  return out;
}

Value leading_rows(const Eigen::MatrixXd& m, long rows) {
  Value out = Value::list();
  for (long r = 0; r < std::min<long>(rows, m.rows()); ++r) {
    std::vector<double> values(static_cast<std::size_t>(m.cols()));
    for (long c = 0; c < m.cols(); ++c) values[static_cast<std::size_t>(c)] = m(r, c);
    out.push(Value::doubles(std::move(values)));
  }
  return out;
}

Value rows_from(const Eigen::MatrixXd& m, long first) {
  const long from = std::clamp<long>(first, 0, m.rows());
  return leading_rows(m.bottomRows(m.rows() - from), m.rows() - from);
}

Value shape(long rows, long cols) { return Value::list().push(Value::integer(rows)).push(Value::integer(cols)); }

std::string current_exception_type() {
  const std::type_info* type = abi::__cxa_current_exception_type();
  if (!type) return "an unknown type";
  int status = 0;
  char* name = abi::__cxa_demangle(type->name(), nullptr, nullptr, &status);
  std::string out = status == 0 && name ? name : type->name();
  std::free(name);
  return out;
}

Snapshot::Snapshot(const KVCache& c)
    : n_kv_heads(c.n_kv_heads),
      head_dim(c.head_dim),
      capacity(c.capacity),
      length(c.length),
      keys(c.keys),
      values(c.values) {}

namespace {
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

}  // namespace

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

namespace {
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
      .set("stored_values", leading_rows(values, s.steps()))
      .set("keys_beyond_length", rows_from(Eigen::MatrixXd::Zero(s.capacity, width), s.steps()))
      .set("values_beyond_length", rows_from(Eigen::MatrixXd::Zero(s.capacity, width), s.steps()));
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
  auto at = [](const Matrix& m, int r, int c) {
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

}  // namespace

CostState& cost_state(int n_heads, int kv, int d, int length, int batch, std::uint64_t seed) {
  static std::vector<CostState> states;  // one per length of the case: two
  for (CostState& state : states)
    if (state.n_heads == n_heads && state.kv == kv && state.d == d && state.length == length && state.batch == batch &&
        state.seed == seed)
      return state;
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

bool register_oracles() {
  return register_operation("full_attention", full_attention_op) &&
         register_operation("expected_cache_state", expected_cache_state_op);
}

}  // namespace judge_harness::kv_cache_support
