// Wrong: a candidate is (log_prob, parent index, token), and equal
// log_probs are ordered by the parent's position in the beam, then by the
// token. The beam is in rank order, so a parent with the higher log_prob
// but the larger tokens wins the tie; the contract gives ties to the
// lexicographically smaller tokens.
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <tuple>
#include <vector>

inline std::vector<Hypothesis> beam_search(const LogProbFn& next_log_probs, const std::vector<int>& prompt,
                                           int beam_width, int max_new_tokens, int eos_id, double length_penalty) {
  if (beam_width < 1 || max_new_tokens < 1) throw std::invalid_argument("beam_search: invalid arguments");

  struct Beam {
    std::vector<int> tokens;
    double log_prob;
  };
  struct Cand {
    double log_prob;
    int parent;  // index into `beams`, which is in rank order
    int token;
  };
  std::vector<Beam> beams{{{}, 0.0}};
  std::vector<Beam> finished;
  for (int step = 0; step < max_new_tokens && !beams.empty(); ++step) {
    std::vector<Cand> cands;
    for (int p = 0; p < static_cast<int>(beams.size()); ++p) {
      std::vector<int> context = prompt;
      context.insert(context.end(), beams[p].tokens.begin(), beams[p].tokens.end());
      const std::vector<double> lp = next_log_probs(context);
      for (int t = 0; t < static_cast<int>(lp.size()); ++t)
        if (std::isfinite(lp[t])) cands.push_back({beams[p].log_prob + lp[t], p, t});
    }
    // the bug: ties go to the better-ranked parent, not to the smaller tokens
    std::sort(cands.begin(), cands.end(), [](const Cand& a, const Cand& b) {
      return std::make_tuple(-a.log_prob, a.parent, a.token) < std::make_tuple(-b.log_prob, b.parent, b.token);
    });
    std::vector<Beam> next;
    for (int rank = 0; rank < static_cast<int>(cands.size()) && static_cast<int>(next.size()) < beam_width; ++rank) {
      Beam b{beams[cands[rank].parent].tokens, cands[rank].log_prob};
      b.tokens.push_back(cands[rank].token);
      if (cands[rank].token != eos_id)
        next.push_back(std::move(b));
      else if (rank < beam_width)
        finished.push_back(std::move(b));
    }
    beams = std::move(next);
  }

  std::vector<Hypothesis> out;
  for (auto* group : {&finished, &beams})
    for (Beam& b : *group) {
      const double score = b.log_prob / std::pow(static_cast<double>(b.tokens.size()), length_penalty);
      out.push_back({std::move(b.tokens), b.log_prob, score});
    }
  std::sort(out.begin(), out.end(), [](const Hypothesis& a, const Hypothesis& b) {
    if (a.score != b.score) return a.score > b.score;
    if (a.log_prob != b.log_prob) return a.log_prob > b.log_prob;
    return a.tokens < b.tokens;
  });
  if (static_cast<int>(out.size()) > beam_width) out.resize(beam_width);
  return out;
}
