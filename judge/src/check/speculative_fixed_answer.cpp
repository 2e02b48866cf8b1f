// draw_free_answer: the round walked with certainties only.
#include "check/speculative_fixed_answer.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

namespace judge {
using json = nlohmann::json;
namespace {
using Rows = std::vector<std::vector<double>>;

// `value` as rows of `vocab` probabilities each; false when it is not.
bool read_rows(const json& value, std::size_t vocab, Rows* rows) {
  if (!value.is_array()) return false;
  for (const json& row : value) {
    if (!row.is_array() || row.size() != vocab) return false;
    std::vector<double> probs;
    double total = 0;
    for (const json& p : row) {
      if (!p.is_number() || !(p.get<double>() >= 0)) return false;
      probs.push_back(p.get<double>());
      total += probs.back();
    }
    if (!(std::fabs(total - 1) <= 1e-9)) return false;
    rows->push_back(std::move(probs));
  }
  return true;
}

// The only token of `weights` with mass; -1 when there are none or several.
int only_token(const std::vector<double>& weights) {
  int token = -1;
  for (std::size_t t = 0; t < weights.size(); ++t) {
    if (!(weights[t] > 0)) continue;
    if (token >= 0) return -1;
    token = static_cast<int>(t);
  }
  return token;
}
}  // namespace

std::optional<std::vector<int>> draw_free_answer(const json& input) {
  const json& target_value = input.value("target_probs", json());
  if (!target_value.is_array() || target_value.empty() || !target_value[0].is_array()) return std::nullopt;
  const std::size_t vocab = target_value[0].size();
  Rows target, draft;
  if (!read_rows(target_value, vocab, &target)) return std::nullopt;
  std::vector<int> tokens;
  if (input.contains("draft_vocab")) {  // no_drafts: K = 0 with a 0 x draft_vocab draft
    if (input["draft_vocab"] != json(static_cast<std::int64_t>(vocab))) return std::nullopt;
  } else {
    if (!input.contains("draft_tokens") || !input["draft_tokens"].is_array()) return std::nullopt;
    for (const json& token : input["draft_tokens"]) {
      if (!token.is_number_integer() || token.get<std::int64_t>() < 0 ||
          token.get<std::int64_t>() >= static_cast<std::int64_t>(vocab))
        return std::nullopt;
      tokens.push_back(token.get<int>());
    }
    if (!read_rows(input.value("draft_probs", json::array()), vocab, &draft)) return std::nullopt;
  }
  if (draft.size() != tokens.size() || target.size() != tokens.size() + 1) return std::nullopt;
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (!(draft[i][static_cast<std::size_t>(tokens[i])] > 0)) return std::nullopt;  // x_i was drawn from q_i

  std::vector<int> answer;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const auto x = static_cast<std::size_t>(tokens[i]);
    const double p = target[i][x], q = draft[i][x];
    if (p >= q) {  // min(1, p / q) = 1
      answer.push_back(tokens[i]);
      continue;
    }
    if (p > 0) return std::nullopt;  // accepted with probability p / q: up to the draws
    std::vector<double> residual(vocab);
    for (std::size_t t = 0; t < vocab; ++t) residual[t] = std::max(0.0, target[i][t] - draft[i][t]);
    const int token = only_token(residual);
    if (token < 0) return std::nullopt;
    answer.push_back(token);
    return answer;
  }
  const int bonus = only_token(target.back());
  if (bonus < 0) return std::nullopt;
  answer.push_back(bonus);
  return answer;
}

}  // namespace judge
