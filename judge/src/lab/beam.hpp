// Beam search in the lab: a beam_search part (the learner's or the
// reference's) searches the lab's target model from inside its runner, the
// model's log-probabilities reaching it through LogProbFn as in the
// problem. The judge then scores every returned hypothesis with its own
// copy of the model and sets the learner's beam beside the reference's.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lab/decoding.hpp"
#include "lab/model.hpp"
#include "lab/parts.hpp"

namespace judge::lab {

// A hypothesis ends at a newline: in the training text, a paragraph's end.
inline constexpr int kBeamEos = 0;

struct BeamHypothesis {
  std::vector<int> tokens;  // generated only; ends with kBeamEos when finished
  double log_prob = 0;      // as the search returned it
  double score = 0;
  double model_log_prob = 0;  // the judge's own sum over `tokens`
  bool finished() const { return !tokens.empty() && tokens.back() == kBeamEos; }
};

struct BeamRun {
  std::vector<BeamHypothesis> hypotheses;
  long model_calls = 0;  // how often the search asked for log-probabilities
  double seconds = 0;
  std::string stopped;  // the search failed: why
};

// Where the learner's beam first departs from the contract or from the
// reference's: a hypothesis (0-based rank; -1 for the list as a whole) and
// what is wrong with it.
struct BeamDifference {
  int rank = -1;
  std::string what;
};

struct BeamStudy {
  BeamRun yours;
  std::optional<BeamRun> reference;  // when the beam_search part is the learner's
  BeamHypothesis greedy;             // the judge's own greedy path, for contrast
  std::optional<BeamDifference> difference;
};

// Log-probabilities (and scores) that differ by more than this, relative to
// their size, are different numbers.
inline constexpr double kBeamTolerance = 1e-6;

// Runs settings.beam_width-wide beam search with `parts`' beam_search on
// `model`, and scores each hypothesis with the model here.
BeamRun beam_search(const Model& model, Parts& parts, const LabSettings& settings);

// The most probable token at each step until a newline or max_new_tokens.
BeamHypothesis greedy_path(const Model& model, const LabSettings& settings);

// The first thing wrong with `yours` (nothing when it stopped: the stop is
// what is wrong): a hypothesis whose log_prob is not its
// tokens' under the model, whose score does not follow, or that is not the
// reference's at its rank.
std::optional<BeamDifference> first_beam_difference(const BeamRun& yours, const BeamRun* reference,
                                                    const LabSettings& settings);

}  // namespace judge::lab
