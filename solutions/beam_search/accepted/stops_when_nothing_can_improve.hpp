// Accepted: stops early, but only when no live hypothesis can still reach
// the answer (the sound bound behind Hugging Face's early_stopping="never").
// Extending a hypothesis only lowers its log_prob L, and the length divides
// it by at most max_new_tokens ** length_penalty (length_penalty > 0) or at
// least cur_len ** length_penalty (length_penalty <= 0), so L divided by
// that is the best score any descendant can reach. Once beam_width finished
// hypotheses all score strictly above every live hypothesis's bound,
// nothing later can enter the result. Keeps only the beam_width best
// finished hypotheses, in the final ranking's order.
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace stops_when_nothing_can_improve {
struct Entry {
  std::vector<int> tokens;
  double log_prob;
  double score;
};
inline bool better(const Entry& a, const Entry& b) {
  if (a.score != b.score) return a.score > b.score;
  if (a.log_prob != b.log_prob) return a.log_prob > b.log_prob;
  return a.tokens < b.tokens;
}
}  // namespace stops_when_nothing_can_improve

inline std::vector<Hypothesis> beam_search(const LogProbFn& next_log_probs, const std::vector<int>& prompt,
                                           int beam_width, int max_new_tokens, int eos_id, double length_penalty) {
  using stops_when_nothing_can_improve::Entry;
  using stops_when_nothing_can_improve::better;
  if (beam_width < 1) throw std::invalid_argument("beam_width must be at least 1");
  if (max_new_tokens < 1) throw std::invalid_argument("max_new_tokens must be at least 1");

  const std::size_t width = static_cast<std::size_t>(beam_width);
  auto score_of = [&](double log_prob, std::size_t length) {
    return log_prob / std::pow(static_cast<double>(length), length_penalty);
  };
  std::vector<Entry> live{{{}, 0.0, 0.0}};
  std::vector<Entry> best_finished;  // at most beam_width, best first
  for (int cur_len = 1; cur_len <= max_new_tokens && !live.empty(); ++cur_len) {
    std::vector<Entry> cands;
    for (const Entry& parent : live) {
      std::vector<int> seq(prompt);
      seq.insert(seq.end(), parent.tokens.begin(), parent.tokens.end());
      const std::vector<double> lp = next_log_probs(seq);
      for (std::size_t t = 0; t < lp.size(); ++t) {
        if (lp[t] == -INFINITY) continue;
        Entry child{parent.tokens, parent.log_prob + lp[t], 0.0};
        child.tokens.push_back(static_cast<int>(t));
        cands.push_back(std::move(child));
      }
    }
    std::sort(cands.begin(), cands.end(), [](const Entry& a, const Entry& b) {
      return a.log_prob != b.log_prob ? a.log_prob > b.log_prob : a.tokens < b.tokens;
    });
    std::vector<Entry> next;
    for (std::size_t rank = 0; rank < cands.size() && next.size() < width; ++rank) {
      Entry& c = cands[rank];
      if (c.tokens.back() != eos_id) {
        next.push_back(std::move(c));
      } else if (rank < width) {
        c.score = score_of(c.log_prob, c.tokens.size());
        best_finished.insert(std::upper_bound(best_finished.begin(), best_finished.end(), c, better), std::move(c));
        if (best_finished.size() > width) best_finished.pop_back();
      }
    }
    live = std::move(next);

    if (best_finished.size() == width && !live.empty() && cur_len < max_new_tokens) {
      // live is best first, so live.front() has the highest log_prob
      const double length = length_penalty > 0 ? max_new_tokens : cur_len;
      const double bound = live.front().log_prob / std::pow(length, length_penalty);
      if (best_finished.back().score > bound) break;  // nothing live can reach the result
    }
  }

  std::vector<Entry> pool = std::move(best_finished);
  for (Entry& e : live) {
    e.score = score_of(e.log_prob, e.tokens.size());
    pool.push_back(std::move(e));
  }
  std::sort(pool.begin(), pool.end(), better);
  std::vector<Hypothesis> out;
  for (std::size_t i = 0; i < pool.size() && i < width; ++i)
    out.push_back({std::move(pool[i].tokens), pool[i].log_prob, pool[i].score});
  return out;
}
