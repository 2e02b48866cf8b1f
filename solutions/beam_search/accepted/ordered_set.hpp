// Accepted: keeps the candidates of a step in a std::set ordered by
// (-log_prob, tokens), so the walk is an in-order traversal, and collects
// the final pool in another std::set ordered by (-score, -log_prob, tokens).
#pragma once

#include <cmath>
#include <iterator>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

inline std::vector<Hypothesis> beam_search(const LogProbFn& next_log_probs, const std::vector<int>& prompt,
                                           int beam_width, int max_new_tokens, int eos_id, double length_penalty) {
  if (!(beam_width >= 1 && max_new_tokens >= 1)) throw std::invalid_argument("invalid beam search arguments");
  using Key = std::pair<double, std::vector<int>>;  // (-log_prob, tokens)
  std::vector<Key> live{{0.0, {}}};
  std::vector<Key> finished;
  int step = 0;
  while (step++ < max_new_tokens && !live.empty()) {
    std::set<Key> ranked;
    for (const Key& parent : live) {
      std::vector<int> seq = prompt;
      seq.insert(seq.end(), parent.second.begin(), parent.second.end());
      const std::vector<double> lp = next_log_probs(seq);
      for (std::size_t t = 0; t < lp.size(); ++t) {
        if (!std::isfinite(lp[t])) continue;
        std::vector<int> tokens = parent.second;
        tokens.push_back(static_cast<int>(t));
        // -(a + b) == (-a) - b exactly, so the order matches log_prob's.
        ranked.emplace(parent.first - lp[t], std::move(tokens));
      }
    }
    std::vector<Key> next;
    long rank = 0;
    for (auto it = ranked.begin(); it != ranked.end() && static_cast<int>(next.size()) < beam_width; ++it, ++rank) {
      if (it->second.back() != eos_id)
        next.push_back(*it);
      else if (rank < beam_width)
        finished.push_back(*it);
    }
    live = std::move(next);
  }

  using Final = std::pair<std::pair<double, double>, std::vector<int>>;  // ((-score, -log_prob), tokens)
  std::set<Final> pool;
  for (const auto* group : {&finished, &live})
    for (const Key& k : *group) {
      const double log_prob = -k.first;
      const double score = log_prob / std::pow(static_cast<double>(k.second.size()), length_penalty);
      pool.insert({{-score, -log_prob}, k.second});
    }
  std::vector<Hypothesis> out;
  for (auto it = pool.begin(); it != pool.end() && static_cast<int>(out.size()) < beam_width; ++it)
    out.push_back({it->second, -it->first.second, -it->first.first});
  return out;
}
