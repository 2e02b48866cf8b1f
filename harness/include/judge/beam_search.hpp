// The types the beam_search problem provides. The judge declares them before
// it includes a solution; a solution uses them and never defines them.
#ifndef JUDGE_BEAM_SEARCH_HPP
#define JUDGE_BEAM_SEARCH_HPP

#include <functional>
#include <vector>

// Log-probabilities over the vocabulary for the next token, given the whole
// sequence so far (prompt followed by the tokens generated).
using LogProbFn = std::function<std::vector<double>(const std::vector<int>&)>;

struct Hypothesis {
  std::vector<int> tokens;  // generated tokens only; ends with eos_id if it finished
  double log_prob;          // sum of the log-probabilities of `tokens`
  double score;             // log_prob / pow(tokens.size(), length_penalty)
};

#endif  // JUDGE_BEAM_SEARCH_HPP
