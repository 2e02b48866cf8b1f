// Throughput of one solution file on the large inputs that matter in
// practice. Built by bench/run.sh once per (problem, solution):
//   c++ -O2 -DBENCH_TOP_K|BENCH_TOP_P|BENCH_KV_CACHE -DSOLUTION='"file"' throughput.cpp
// Prints one line per size: "<what> <median ms>".
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#ifdef BENCH_KV_CACHE
#include <judge/kv_cache.hpp>
#endif
#include SOLUTION

namespace {
template <typename F>
double median_ms(int repetitions, F&& run) {
  std::vector<double> times;
  for (int i = 0; i < repetitions; ++i) {
    auto start = std::chrono::steady_clock::now();
    run();
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

std::vector<double> normal_logits(int n, double stddev) {
  std::mt19937_64 generator(42);
  std::normal_distribution<double> normal(0.0, stddev);
  std::vector<double> logits(n);
  for (double& z : logits) z = normal(generator);
  return logits;
}
volatile double sink;
}  // namespace

int main() {
#if defined(BENCH_TOP_K)
  for (int n : {131072, 262144})
    for (int k : {50, 2000}) {
      std::vector<double> logits = normal_logits(n, 2.0);
      double ms = median_ms(11, [&] { sink = top_k_probs(logits, k)[0]; });
      std::printf("top_k_probs V=%d k=%d %.2f\n", n, k, ms);
    }
#elif defined(BENCH_TOP_P)
  for (int n : {131072, 262144}) {
    std::vector<double> logits = normal_logits(n, 2.0);
    double ms = median_ms(11, [&] { sink = top_p_probs(logits, 0.5)[0]; });
    std::printf("top_p_probs V=%d p=0.5 %.2f\n", n, ms);
  }
#elif defined(BENCH_KV_CACHE)
  // Llama-like head shapes, grouped-query: 32 query heads, 8 KV heads, d=128.
  const int heads = 32, kv_heads = 8, dim = 128, length = 4096;
  KVCache cache(length + 64, kv_heads, dim);
  std::mt19937_64 generator(7);
  std::normal_distribution<double> normal(0.0, 1.0);
  auto vector_of = [&](int size) {
    Eigen::VectorXd v(size);
    for (int i = 0; i < size; ++i) v[i] = normal(generator);
    return v;
  };
  // Fill the cache directly: a naive step would take minutes to get there.
  for (int t = 0; t < length; ++t) {
    cache.keys.row(t) = vector_of(kv_heads * dim).transpose();
    cache.values.row(t) = vector_of(kv_heads * dim).transpose();
  }
  cache.length = length;
  Eigen::VectorXd q = vector_of(heads * dim), k = vector_of(kv_heads * dim), v = vector_of(kv_heads * dim);
  // Each step appends a row; rewind so every timed step sees `length` rows.
  double ms = median_ms(7, [&] {
    cache.length = length;
    sink = attention_step(cache, q, k, v, heads)[0];
  });
  std::printf("attention_step at %d cached tokens (32 heads, 8 kv, d=128) %.3f\n", length, ms);
#endif
  return 0;
}
