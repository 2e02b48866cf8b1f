// The decoding loop of the lab: logits -> repetition penalty -> temperature
// -> top-k or top-p -> sample (or greedy), each step's attention through
// the KV cache of every layer, and speculative decoding around it with the
// draft model. Every part is a Parts call (the learner's or the
// reference's); the model's arithmetic is the judge's own (model.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "lab/model.hpp"
#include "lab/parts.hpp"

namespace judge::lab {

struct LabSettings {
  std::string prompt = "the kernel";
  int max_new_tokens = 200;
  double temperature = 0.8;
  double penalty = 1.1;  // over every token of the sequence so far, the prompt's too
  Filter filter{Filter::Kind::kTopP, 0, 0.9};
  bool greedy = false;  // the most probable token after the filter, no sampler
  std::uint64_t seed = 1;
  int draft_tokens = 0;  // > 0: speculative decoding with that many drafts a round
  int beam_width = 0;    // > 0: beam search (beam.hpp) instead of sampling
  double length_penalty = 1.0;
};

// The prompt's tokens. Throws SpecError for a prompt with no character the
// model knows, or one that leaves no room in the context for the tokens asked.
std::vector<int> prompt_tokens(const Model& model, const LabSettings& settings);

// A next-token distribution after each stage of the loop.
struct Stages {
  std::vector<double> softmax;    // the model's logits, softmaxed
  std::vector<double> penalized;  // after the repetition penalty, softmaxed
  std::vector<double> tempered;   // softmax_with_temperature's
  std::vector<double> filtered;   // top-k or top-p's, what the token is drawn from
};
const std::vector<std::string>& stage_names();  // "model", "penalty", "temperature", "filter"
const std::vector<double>& stage_of(const Stages& stages, std::size_t index);

struct LabStep {
  int token = 0;
  Stages stages;
};

// The KV cache after a run: the statement's formula for the tokens held,
// beside what the attention part's caches held.
struct CacheFigures {
  int positions = 0;         // tokens the target model attended over
  long formula_bytes = 0;    // 2 * n_layers * n_kv_heads * head_dim * positions * sizeof(double)
  long held_bytes = 0;       // the same product, with each layer's cache length as the part left it
  long allocated_bytes = 0;  // the bytes of every layer's key and value matrices (capacity rows)
  std::vector<int> lengths;  // each layer's cache length as the part left it
};

struct SpeculativeFigures {
  int rounds = 0;   // target passes: one verify round each
  int drafted = 0;  // drafts proposed
  int reached = 0;  // drafts the verify rounds looked at (up to the first rejection)
  int accepted = 0;
  int emitted = 0;            // tokens the rounds produced
  double measured = 0;        // accepted / reached
  double predicted = 0;       // the mean over reached drafts of sum_x min(p(x), q(x))
  double standard_error = 0;  // of the measured rate, from the predicted per-draft rates
  int target_passes_saved() const { return emitted - rounds; }
  // Whether the measured rate is within kAcceptanceErrors standard errors
  // of the predicted: a rule that keeps the target's distribution is,
  // but for a chance below 1 in 15,000.
  bool as_predicted() const;
};
inline constexpr double kAcceptanceErrors = 4;

struct LabRun {
  std::vector<int> prompt;
  std::vector<int> generated;
  std::vector<LabStep> steps;  // one per generated token (plain decoding)
  double seconds = 0;
  CacheFigures cache;
  std::optional<SpeculativeFigures> speculative;
  std::string stopped;  // a part that failed: the lab stopped there, and this says why
};

// Where the learner's parts first changed a next-token distribution: the
// reference pipeline is run on the learner's own tokens, step by step.
struct Divergence {
  int step = 0;       // 0-based generated token
  std::string stage;  // the first stage that differs ("model" when the attention differs)
  double max_difference = 0;
  int token = 0;  // where the difference is largest
  double yours = 0, reference = 0;
  int steps_differing = 0;  // of the steps compared
};

struct Comparison {
  std::optional<Divergence> divergence;
  int steps_compared = 0;
};

// Generates with `parts`; calls `on_token` as each token is decided. When
// `reference` is given, it runs beside on the same tokens and *comparison
// says where their distributions first differ. Throws SpecError for
// settings the model cannot take (a prompt with no known character, more
// tokens than its context).
LabRun generate(const Model& model, Parts& parts, const LabSettings& settings,
                const std::function<void(int token)>& on_token, Parts* reference = nullptr,
                Comparison* comparison = nullptr);

// Speculative decoding: `draft` proposes settings.draft_tokens tokens a
// round, `target` verifies them with the parts' speculative_accept.
LabRun generate_speculative(const Model& target, const Model& draft, Parts& parts, const LabSettings& settings,
                            const std::function<void(int token)>& on_token);

// Probabilities that differ by more than this are different distributions.
inline constexpr double kDistributionTolerance = 1e-6;

}  // namespace judge::lab
