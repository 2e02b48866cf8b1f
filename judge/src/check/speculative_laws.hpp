// The laws a speculative-decoding round must follow with toy models, read
// from a case's `model` and computed in the judge: what the `speculative`
// checker tests, and what `judge try` tallies.
//
// Tables: {k: K, draft: {start: [V], next: [[V] x V]}, target: {start, next}};
// `start` is the distribution of the first token, next[t] the one after t.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace judge {

struct Bigram {
  std::vector<double> start;
  std::vector<std::vector<double>> next;
  // The distribution after a token; -1: the first token.
  const std::vector<double>& after(int token) const {
    return token < 0 ? start : next[static_cast<std::size_t>(token)];
  }
};

struct Tables {
  int k = 0;
  int vocab = 0;
  Bigram draft, target;
};

// Reads a case's input.model into *tables; false with the reason in *error
// ("every table row needs 3 probabilities") when it is not a valid model.
bool read_tables(const nlohmann::json& model, Tables* tables, std::string* error);

// A law the emitted tokens must follow: category probabilities and names.
struct Law {
  std::string what;  // for messages: what a rejection means
  std::vector<double> probs;
  std::function<std::string(int)> label;
};

// The laws, in this order: the first emitted token (the target's p_0), the
// number of drafts accepted in the first round (by the acceptance rule
// min(1, p_i / q_i)), and the first two emitted tokens (p_0(a) * p(b | a)).
inline constexpr int kLaws = 3;
std::vector<Law> laws_of(const Tables& tables);

// One seed's decoding, as the laws see it.
struct Observation {
  int first = -1, second = -1, accepted = -1;
};

// Checks the rounds of one seed (a list of [drafts, emitted]) against the
// structure every round must have and the tables' support; the
// observation, or nullopt with a message in *error and its failure kind
// ("structure", "zero_probability") in *kind.
std::optional<Observation> observe(const Tables& tables, std::uint64_t seed, const nlohmann::json& rounds,
                                   std::string* error, std::string* kind);

}  // namespace judge
