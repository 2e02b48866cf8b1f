// top_k: keep the k most likely tokens, renormalize, and sample from them.
// Read the statement with `judge show top_k`; test with `judge run top_k`.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

// Returns a vector as long as `logits`: the softmax over the k largest
// logits (ties at the boundary go to the lower token id) and 0 for every
// other token. k >= logits.size() keeps every token.
// Throws std::invalid_argument if k < 1 or logits is empty.
inline std::vector<double> top_k_probs(const std::vector<double>& logits, int k) {
  (void)logits;  // remove these two lines when you start
  (void)k;
  throw std::logic_error("not implemented yet");
}

// Returns one token id drawn from top_k_probs(logits, k). The same
// arguments and seed must always give the same token (seed a
// std::mt19937_64 with `seed`, for example). Never returns a token whose
// probability is 0. Throws std::invalid_argument like top_k_probs.
inline int top_k_sample(const std::vector<double>& logits, int k, std::uint64_t seed) {
  (void)logits;  // remove these three lines when you start
  (void)k;
  (void)seed;
  throw std::logic_error("not implemented yet");
}
