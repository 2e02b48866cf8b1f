// The answer of one speculative-decoding round (speculative_accept's
// inputs: draft_tokens, draft_probs, target_probs; or no_drafts's
// draft_vocab and target_probs) when it does not depend on the random
// draws: every draft is accepted for certain (p_i(x_i) >= q_i(x_i) > 0) or
// rejected for certain (p_i(x_i) = 0), and the one distribution the last
// token comes from (the residual at the rejection, else the bonus row) has
// a single token with mass. What the `speculative` checker's fixed-answer
// cases hold a learner to, derived in the judge so that a shrunk input gets
// its answer without trusting a few seeds to show that it has one.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

namespace judge {

// The inputs are read by the names speculative_accept gives them (as the
// checker reads a law case's `model`). nullopt when the answer depends on
// the draws, when the inputs are not so named, or when `input` is not a
// valid round: shapes that disagree, a token outside [0, V), a row that is
// not a distribution (entries >= 0 summing to 1 within 1e-9), a draft the
// draft distribution gives probability 0.
std::optional<std::vector<int>> draw_free_answer(const nlohmann::json& input);

}  // namespace judge
