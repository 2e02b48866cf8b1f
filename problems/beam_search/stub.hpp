// Beam search.
//
// Keep the beam_width best live hypotheses. Each step: extend every live
// hypothesis by every token with a finite log-probability (log_prob adds
// up), rank the candidates by log_prob (ties: smaller tokens first), walk
// the ranking: a candidate ending in eos_id is finished if its 0-based rank
// is below beam_width and dropped otherwise; any other candidate is live;
// stop once beam_width are live. After at most max_new_tokens steps (or
// when nothing is live), pool finished and live hypotheses, rank by
// score = log_prob / pow(tokens.size(), length_penalty) (ties: higher
// log_prob, then smaller tokens) and return the first beam_width.
//
// - tokens holds the generated tokens only (EOS included), not the prompt.
// - Add log-probabilities; never multiply probabilities.
// - Throw std::invalid_argument if beam_width < 1 or max_new_tokens < 1.
//
// LogProbFn and Hypothesis are provided by the judge (see
// <judge/beam_search.hpp>); do not define them.
// `judge show beam_search` prints the full statement.
#pragma once

#include <judge/beam_search.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

inline std::vector<Hypothesis> beam_search(const LogProbFn& next_log_probs, const std::vector<int>& prompt,
                                           int beam_width, int max_new_tokens, int eos_id, double length_penalty) {
  (void)next_log_probs;
  (void)prompt;
  (void)beam_width;
  (void)max_new_tokens;
  (void)eos_id;
  (void)length_penalty;
  throw std::logic_error("not implemented yet");
}
