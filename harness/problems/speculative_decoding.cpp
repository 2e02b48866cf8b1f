// Adapter for the speculative_decoding problem: speculative_accept.
//
// Ops:
//   speculative_accept  one call with explicit drafts, tables and seed
//   no_drafts           one call with K = 0: no drafts, a 0 x draft_vocab
//                       draft_probs (which a case cannot write as a matrix)
//   speculate_many      many seeds of decoding with toy models, in the harness
//                       library (judge_harness/speculative_support.hpp).
//   accept_fixed_answer, no_drafts_fixed_answer
//                       the answer of speculative_accept's and no_drafts's
//                       round whatever the draws, or null (trusted: the
//                       judge asks the reference's runner, when it shrinks
//                       a failed round; problem.yaml `fixed_answer:`).
#include <judge_harness/runner.hpp>
#include <judge_harness/speculative_support.hpp>

#include <Eigen/Dense>
#include <cstdint>
#include <optional>
#include <vector>

#include JUDGE_LEARNER_BINDINGS  // speculative_decoding.learner.hpp: the learner's functions, compiled apart

namespace {
using judge_harness::Value;

Eigen::MatrixXd to_eigen(const judge_harness::Matrix& m) {
  Eigen::MatrixXd out(m.rows, m.cols);
  for (int r = 0; r < m.rows; ++r)
    for (int c = 0; c < m.cols; ++c) out(r, c) = m.data[static_cast<std::size_t>(r) * m.cols + c];
  return out;
}

Value speculative_accept_op(const Value& args) {
  std::vector<int> drafts = judge_harness::arg_ints(args, "draft_tokens");
  Eigen::MatrixXd target = to_eigen(judge_harness::arg_matrix(args, "target_probs"));
  Eigen::MatrixXd draft = to_eigen(judge_harness::arg_matrix(args, "draft_probs"));
  // A case writes K = 0 draft rows as []; the contract's shape is 0 x V.
  if (draft.rows() == 0) draft.resize(0, target.cols());
  return Value::ints(judge_harness::speculative_support::watched_call(judge_learner::speculative_accept, drafts, draft,
                                                                      target, judge_harness::arg_seed(args, "seed")));
}

// K = 0 with a draft_probs of 0 rows and draft_vocab columns: a case's
// `draft_probs: []` always becomes 0 x V, so a vocabulary that differs from
// target_probs's V needs this op.
Value no_drafts_op(const Value& args) {
  Eigen::MatrixXd target = to_eigen(judge_harness::arg_matrix(args, "target_probs"));
  const int draft_vocab = judge_harness::arg_int(args, "draft_vocab");
  if (draft_vocab < 0) throw judge_harness::BadRequest{"no_drafts: draft_vocab < 0"};
  Eigen::MatrixXd draft(0, draft_vocab);
  return Value::ints(judge_harness::speculative_support::watched_call(judge_learner::speculative_accept, {}, draft,
                                                                      target, judge_harness::arg_seed(args, "seed")));
}

Value answer_or_null(const std::optional<std::vector<int>>& answer) { return answer ? Value::ints(*answer) : Value(); }

Value accept_fixed_answer_op(const Value& args) {
  Eigen::MatrixXd target = to_eigen(judge_harness::arg_matrix(args, "target_probs"));
  Eigen::MatrixXd draft = to_eigen(judge_harness::arg_matrix(args, "draft_probs"));
  if (draft.rows() == 0) draft.resize(0, target.cols());
  return answer_or_null(
      judge_harness::speculative_support::fixed_answer(judge_harness::arg_ints(args, "draft_tokens"), draft, target));
}

// K = 0: fixed when the draft's vocabulary is the target's (else the call
// is invalid) and the bonus row holds one token.
Value no_drafts_fixed_answer_op(const Value& args) {
  Eigen::MatrixXd target = to_eigen(judge_harness::arg_matrix(args, "target_probs"));
  if (judge_harness::arg_int(args, "draft_vocab") != target.cols()) return Value();
  return answer_or_null(
      judge_harness::speculative_support::fixed_answer({}, Eigen::MatrixXd(0, target.cols()), target));
}

Value speculate_many_op(const Value& args) {
  return judge_harness::speculative_support::speculate_many(args, judge_learner::speculative_accept);
}

[[maybe_unused]] const bool registered =
    judge_harness::register_operation("speculative_accept", speculative_accept_op) &&
    judge_harness::register_operation("no_drafts", no_drafts_op) &&
    judge_harness::register_operation("speculate_many", speculate_many_op) &&
    judge_harness::register_operation("accept_fixed_answer", accept_fixed_answer_op) &&
    judge_harness::register_operation("no_drafts_fixed_answer", no_drafts_fixed_answer_op);
}  // namespace
