#include "lab/beam.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>

namespace judge::lab {
namespace {

namespace lm = judge_harness::lab_model;

// The model's log-probability of `tokens` after `prompt`.
double sequence_log_prob(const Model& model, const std::vector<int>& prompt, const std::vector<int>& tokens) {
  CausalAttention attention(model.shape());
  const AttentionStep attend = [&](int layer, const Eigen::VectorXd& q, const Eigen::VectorXd& k,
                                   const Eigen::VectorXd& v) { return attention.step(layer, q, k, v); };
  std::vector<int> sequence = prompt;
  sequence.insert(sequence.end(), tokens.begin(), tokens.end());
  double total = 0;
  for (std::size_t i = 0; i + 1 < sequence.size(); ++i) {
    const Eigen::VectorXd log_probs = lm::log_softmax(model.next_logits(sequence[i], static_cast<int>(i), attend));
    if (i + 1 >= prompt.size()) total += log_probs(sequence[i + 1]);
  }
  return total;
}

bool same_number(double a, double b) {
  return std::abs(a - b) <= kBeamTolerance * std::max(1.0, std::max(std::abs(a), std::abs(b)));
}

std::string quoted(const std::vector<int>& tokens) {
  std::string text;
  for (int t : tokens) text += t == kBeamEos ? std::string("\\n") : std::string(1, char_of(t));
  return "\"" + text + "\"";
}

std::string described(const BeamHypothesis& h) {
  return fmt::format("{} (log_prob {:.6f}, score {:.6f})", quoted(h.tokens), h.log_prob, h.score);
}

// What is wrong with one hypothesis on its own, or "".
std::string contract_fault(const BeamHypothesis& h, const LabSettings& settings) {
  if (h.tokens.empty()) return "has no tokens";
  for (std::size_t i = 0; i + 1 < h.tokens.size(); ++i)
    if (h.tokens[i] == kBeamEos) return fmt::format("goes on after eos_id (a newline) at token {}", i + 1);
  if (!same_number(h.log_prob, h.model_log_prob))
    return fmt::format("{} says log_prob {:.9g}; the model gives its tokens {:.9g}", quoted(h.tokens), h.log_prob,
                       h.model_log_prob);
  const double score = h.log_prob / std::pow(static_cast<double>(h.tokens.size()), settings.length_penalty);
  if (!same_number(h.score, score))
    return fmt::format("{} says score {:.9g}; log_prob / {}^{} is {:.9g}", quoted(h.tokens), h.score, h.tokens.size(),
                       settings.length_penalty, score);
  return "";
}

}  // namespace

BeamRun beam_search(const Model& model, Parts& parts, const LabSettings& settings) {
  const std::vector<int> prompt = prompt_tokens(model, settings);
  BeamRun run;
  const auto start = std::chrono::steady_clock::now();
  try {
    const BeamReply reply =
        parts.beam(model, prompt, settings.beam_width, settings.max_new_tokens, kBeamEos, settings.length_penalty);
    run.model_calls = reply.model_calls;
    for (const BeamReply::Hypothesis& h : reply.hypotheses)
      run.hypotheses.push_back(BeamHypothesis{h.tokens, h.log_prob, h.score, 0});
  } catch (const PartFailed& failed) {
    run.stopped = failed.what();
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (BeamHypothesis& h : run.hypotheses) h.model_log_prob = sequence_log_prob(model, prompt, h.tokens);
  return run;
}

BeamHypothesis greedy_path(const Model& model, const LabSettings& settings) {
  const std::vector<int> prompt = prompt_tokens(model, settings);
  CausalAttention attention(model.shape());
  const AttentionStep attend = [&](int layer, const Eigen::VectorXd& q, const Eigen::VectorXd& k,
                                   const Eigen::VectorXd& v) { return attention.step(layer, q, k, v); };
  BeamHypothesis path;
  Eigen::VectorXd log_probs;
  for (std::size_t i = 0; i < prompt.size(); ++i)
    log_probs = lm::log_softmax(model.next_logits(prompt[i], static_cast<int>(i), attend));
  while (static_cast<int>(path.tokens.size()) < settings.max_new_tokens) {
    Eigen::Index best = 0;
    path.log_prob += log_probs.maxCoeff(&best);
    path.tokens.push_back(static_cast<int>(best));
    if (best == kBeamEos || static_cast<int>(path.tokens.size()) == settings.max_new_tokens) break;
    log_probs = lm::log_softmax(
        model.next_logits(static_cast<int>(best), static_cast<int>(prompt.size() + path.tokens.size() - 1), attend));
  }
  path.model_log_prob = path.log_prob;
  path.score = path.log_prob / std::pow(static_cast<double>(path.tokens.size()), settings.length_penalty);
  return path;
}

std::optional<BeamDifference> first_beam_difference(const BeamRun& yours, const BeamRun* reference,
                                                    const LabSettings& settings) {
  if (!yours.stopped.empty()) return std::nullopt;  // the failure is the stop, said as such
  for (std::size_t r = 0; r < yours.hypotheses.size(); ++r) {
    if (std::string fault = contract_fault(yours.hypotheses[r], settings); !fault.empty())
      return BeamDifference{static_cast<int>(r), fault};
  }
  if (!reference || !reference->stopped.empty()) return std::nullopt;
  const auto& a = yours.hypotheses;
  const auto& b = reference->hypotheses;
  for (std::size_t r = 0; r < std::min(a.size(), b.size()); ++r) {
    if (a[r].tokens != b[r].tokens || !same_number(a[r].score, b[r].score))
      return BeamDifference{static_cast<int>(r),
                            fmt::format("yours is {}, the reference's {}", described(a[r]), described(b[r]))};
  }
  if (a.size() != b.size())
    return BeamDifference{-1, fmt::format("your search returned {} hypotheses, the reference's {} (beam width {})",
                                          a.size(), b.size(), settings.beam_width)};
  return std::nullopt;
}

}  // namespace judge::lab
