// Wrong: remembers each search by its prompt and settings, but not by the
// model: the same prompt under another model returns the first model's
// hypotheses. A call's answer must depend on its arguments alone.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <stdexcept>
#include <tuple>
#include <vector>

inline std::vector<Hypothesis> search_once(const LogProbFn& next_log_probs, const std::vector<int>& prompt,
                                           int beam_width, int max_new_tokens, int eos_id, double length_penalty) {
  if (beam_width < 1) throw std::invalid_argument("beam_search: beam_width < 1");
  if (max_new_tokens < 1) throw std::invalid_argument("beam_search: max_new_tokens < 1");

  struct Candidate {
    std::vector<int> tokens;
    double log_prob;
  };
  // High log_prob first; equal log_probs: the lexicographically smaller tokens.
  auto by_log_prob = [](const Candidate& a, const Candidate& b) {
    if (a.log_prob != b.log_prob) return a.log_prob > b.log_prob;
    return a.tokens < b.tokens;
  };

  std::vector<Candidate> live{{{}, 0.0}};
  std::vector<Candidate> finished;
  std::vector<int> context;
  for (int step = 0; step < max_new_tokens && !live.empty(); ++step) {
    std::vector<Candidate> candidates;
    for (const Candidate& parent : live) {
      context.assign(prompt.begin(), prompt.end());
      context.insert(context.end(), parent.tokens.begin(), parent.tokens.end());
      const std::vector<double> log_probs = next_log_probs(context);
      for (std::size_t token = 0; token < log_probs.size(); ++token) {
        if (!std::isfinite(log_probs[token])) continue;  // -inf: impossible token
        Candidate child{parent.tokens, parent.log_prob + log_probs[token]};
        child.tokens.push_back(static_cast<int>(token));
        candidates.push_back(std::move(child));
      }
    }
    std::sort(candidates.begin(), candidates.end(), by_log_prob);

    std::vector<Candidate> next_live;
    for (std::size_t rank = 0; rank < candidates.size(); ++rank) {
      if (static_cast<int>(next_live.size()) == beam_width) break;
      Candidate& c = candidates[rank];
      if (c.tokens.back() == eos_id) {
        // A finished hypothesis counts only if it made the top beam_width.
        if (rank < static_cast<std::size_t>(beam_width)) finished.push_back(std::move(c));
      } else {
        next_live.push_back(std::move(c));
      }
    }
    live = std::move(next_live);
  }

  std::vector<Hypothesis> pool;
  for (auto* group : {&finished, &live})
    for (Candidate& c : *group) {
      const double length = static_cast<double>(c.tokens.size());
      const double score = c.log_prob / std::pow(length, length_penalty);
      pool.push_back(Hypothesis{std::move(c.tokens), c.log_prob, score});
    }
  std::sort(pool.begin(), pool.end(), [](const Hypothesis& a, const Hypothesis& b) {
    if (a.score != b.score) return a.score > b.score;
    if (a.log_prob != b.log_prob) return a.log_prob > b.log_prob;
    return a.tokens < b.tokens;
  });
  if (pool.size() > static_cast<std::size_t>(beam_width)) pool.resize(beam_width);
  return pool;
}

inline std::vector<Hypothesis> beam_search(const LogProbFn& next_log_probs, const std::vector<int>& prompt,
                                           int beam_width, int max_new_tokens, int eos_id, double length_penalty) {
  using Key = std::tuple<std::vector<int>, int, int, int, double>;
  static std::map<Key, std::vector<Hypothesis>> remembered;
  Key key{prompt, beam_width, max_new_tokens, eos_id, length_penalty};
  auto found = remembered.find(key);
  if (found != remembered.end()) return found->second;
  std::vector<Hypothesis> result = search_once(next_log_probs, prompt, beam_width, max_new_tokens, eos_id, length_penalty);
  remembered.emplace(key, result);
  return result;
}
