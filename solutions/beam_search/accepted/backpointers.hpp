// Accepted: stores every hypothesis as a node (parent index, last token,
// log_prob) in one growing arena instead of copying token vectors, and
// rebuilds a hypothesis's tokens only when they are needed (for the model's
// context, for breaking ties, and for the result).
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

inline std::vector<Hypothesis> beam_search(const LogProbFn& next_log_probs, const std::vector<int>& prompt,
                                           int beam_width, int max_new_tokens, int eos_id, double length_penalty) {
  if (beam_width <= 0 || max_new_tokens <= 0) throw std::invalid_argument("beam_search: bad arguments");

  struct Node {
    int parent;  // -1 for the empty root
    int token;
    double log_prob;
  };
  std::vector<Node> nodes{{-1, -1, 0.0}};
  auto tokens_of = [&](int node) {
    std::vector<int> out;
    for (; nodes[node].parent >= 0; node = nodes[node].parent) out.push_back(nodes[node].token);
    std::reverse(out.begin(), out.end());
    return out;
  };

  std::vector<int> live{0}, finished;
  for (int step = 1; step <= max_new_tokens && !live.empty(); ++step) {
    struct Cand {
      int node;
      std::vector<int> tokens;
    };
    std::vector<Cand> cands;
    for (int parent : live) {
      std::vector<int> context = prompt;
      const std::vector<int> so_far = tokens_of(parent);
      context.insert(context.end(), so_far.begin(), so_far.end());
      const std::vector<double> lp = next_log_probs(context);
      for (int t = 0; t < static_cast<int>(lp.size()); ++t) {
        if (lp[t] == -INFINITY || std::isnan(lp[t])) continue;
        nodes.push_back({parent, t, nodes[parent].log_prob + lp[t]});
        std::vector<int> tokens = so_far;
        tokens.push_back(t);
        cands.push_back({static_cast<int>(nodes.size()) - 1, std::move(tokens)});
      }
    }
    std::stable_sort(cands.begin(), cands.end(), [&](const Cand& a, const Cand& b) {
      const double x = nodes[a.node].log_prob, y = nodes[b.node].log_prob;
      return x != y ? x > y : a.tokens < b.tokens;
    });
    std::vector<int> next;
    for (int rank = 0; rank < static_cast<int>(cands.size()) && static_cast<int>(next.size()) < beam_width; ++rank) {
      const int node = cands[rank].node;
      if (nodes[node].token != eos_id)
        next.push_back(node);
      else if (rank < beam_width)
        finished.push_back(node);
    }
    live.swap(next);
  }

  std::vector<Hypothesis> result;
  for (int node : finished) result.push_back({tokens_of(node), nodes[node].log_prob, 0.0});
  for (int node : live) result.push_back({tokens_of(node), nodes[node].log_prob, 0.0});
  for (Hypothesis& h : result) h.score = h.log_prob / std::pow(static_cast<double>(h.tokens.size()), length_penalty);
  std::sort(result.begin(), result.end(), [](const Hypothesis& a, const Hypothesis& b) {
    if (a.score != b.score) return a.score > b.score;
    if (a.log_prob != b.log_prob) return a.log_prob > b.log_prob;
    return a.tokens < b.tokens;
  });
  result.resize(std::min<std::size_t>(result.size(), beam_width));
  return result;
}
