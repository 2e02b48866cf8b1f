// top_p: keep the smallest set of most likely tokens whose probability adds
// up to at least p (nucleus sampling), renormalize, and sample from it.
// Read the statement with `judge show top_p`; test with `judge run top_p`.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

// Returns a vector as long as `logits`. Take softmax(logits), rank tokens
// by probability (ties: lower id first), keep the shortest prefix of that
// ranking whose probabilities sum to at least p (the token that crosses p
// is kept), renormalize the kept ones to sum to 1, and put 0 elsewhere.
// p = 1 keeps every token.
// Throws std::invalid_argument if p <= 0, p > 1, p is not finite, or
// logits is empty.
inline std::vector<double> top_p_probs(const std::vector<double>& logits, double p) {
  (void)logits;  // remove these two lines when you start
  (void)p;
  throw std::logic_error("not implemented yet");
}

// Returns one token id drawn from top_p_probs(logits, p). The same
// arguments and seed must always give the same token (seed a
// std::mt19937_64 with `seed`, for example). Never returns a token whose
// probability is 0. Throws std::invalid_argument like top_p_probs.
inline int top_p_sample(const std::vector<double>& logits, double p, std::uint64_t seed) {
  (void)logits;  // remove these three lines when you start
  (void)p;
  (void)seed;
  throw std::logic_error("not implemented yet");
}
