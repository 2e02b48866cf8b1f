// Accepted: does not sort every candidate. Each live hypothesis adds at
// most one EOS candidate, so at most beam_width EOS candidates exist and
// the walk never needs more than the top 2 * beam_width candidates:
// std::partial_sort puts those in order. Candidates are (log_prob, parent,
// token) triples; all live hypotheses have the same length, so comparing
// tokens lexicographically is comparing the parents' tokens, then the new
// token.
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <tuple>
#include <vector>

inline std::vector<Hypothesis> beam_search(const LogProbFn& next_log_probs, const std::vector<int>& prompt,
                                           int beam_width, int max_new_tokens, int eos_id, double length_penalty) {
  if (beam_width < 1) throw std::invalid_argument("beam_width must be >= 1");
  if (max_new_tokens < 1) throw std::invalid_argument("max_new_tokens must be >= 1");

  struct Beam {
    std::vector<int> tokens;
    double log_prob;
  };
  std::vector<Beam> live{{{}, 0.0}};
  std::vector<Beam> done;
  for (int step = 0; step < max_new_tokens && !live.empty(); ++step) {
    // Live hypotheses stay sorted by tokens so that parent order breaks ties.
    std::sort(live.begin(), live.end(), [](const Beam& a, const Beam& b) { return a.tokens < b.tokens; });
    struct Cand {
      double log_prob;
      int parent;
      int token;
    };
    std::vector<Cand> cands;
    for (int p = 0; p < static_cast<int>(live.size()); ++p) {
      std::vector<int> context(prompt);
      context.insert(context.end(), live[p].tokens.begin(), live[p].tokens.end());
      std::vector<double> lp = next_log_probs(context);
      for (int t = 0; t < static_cast<int>(lp.size()); ++t)
        if (std::isfinite(lp[t])) cands.push_back({live[p].log_prob + lp[t], p, t});
    }
    auto better = [](const Cand& a, const Cand& b) {
      return std::make_tuple(-a.log_prob, a.parent, a.token) < std::make_tuple(-b.log_prob, b.parent, b.token);
    };
    const std::size_t needed = std::min<std::size_t>(cands.size(), 2 * static_cast<std::size_t>(beam_width));
    std::partial_sort(cands.begin(), cands.begin() + static_cast<long>(needed), cands.end(), better);
    std::vector<Beam> next;
    for (std::size_t rank = 0; rank < needed && next.size() < static_cast<std::size_t>(beam_width); ++rank) {
      Beam b{live[cands[rank].parent].tokens, cands[rank].log_prob};
      b.tokens.push_back(cands[rank].token);
      if (cands[rank].token != eos_id)
        next.push_back(std::move(b));
      else if (rank < static_cast<std::size_t>(beam_width))
        done.push_back(std::move(b));
    }
    live = std::move(next);
  }

  done.insert(done.end(), live.begin(), live.end());
  std::vector<Hypothesis> out;
  for (Beam& b : done) {
    double score = b.log_prob / std::pow(static_cast<double>(b.tokens.size()), length_penalty);
    out.push_back({std::move(b.tokens), b.log_prob, score});
  }
  std::sort(out.begin(), out.end(), [](const Hypothesis& a, const Hypothesis& b) {
    return std::tie(b.score, b.log_prob, a.tokens) < std::tie(a.score, a.log_prob, b.tokens);
  });
  if (static_cast<int>(out.size()) > beam_width) out.erase(out.begin() + beam_width, out.end());
  return out;
}
