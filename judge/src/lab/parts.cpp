#include "lab/parts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "run/number_list.hpp"
#include "util/errors.hpp"

namespace judge::lab {
namespace {
using nlohmann::json;

// A whole beam search is one call: up to 16 hypotheses a step over 250
// steps, each a token's pass through the model in the runner.
constexpr int kBeamTimeLimitMs = 60000;

json vector_json(const Eigen::VectorXd& v) { return json(std::vector<double>(v.data(), v.data() + v.size())); }

json matrix_json(const Eigen::MatrixXd& m) {
  json rows = json::array();
  for (Eigen::Index r = 0; r < m.rows(); ++r) rows.push_back(vector_json(m.row(r).transpose()));
  return rows;
}

std::string failure_text(const CallResult& call, int time_limit_ms) {
  switch (call.outcome) {
    case CallResult::Outcome::kException:
      return fmt::format("threw {}{}", call.exception_type, call.what.empty() ? "" : ": " + call.what);
    case CallResult::Outcome::kTimeout: return "did not return within " + std::to_string(time_limit_ms) + " ms";
    case CallResult::Outcome::kDied:
      return call.out_of_memory ? "ran out of memory" : "crashed" + (call.detail.empty() ? "" : ": " + call.detail);
    case CallResult::Outcome::kHarnessError: return "said the harness could not run it: " + call.detail;
    default: return call.detail.empty() ? "did not reply" : call.detail;
  }
}

// The numbers a part returned; a part that returns NaN (or, with `finite`,
// any infinity) stops the loop here, where the fault is, rather than in the
// next part, which would refuse the input.
std::vector<double> doubles_reply(const json& value, std::size_t size, const std::string& what, bool finite = false) {
  if (!is_list(value) || list_size(value) != size)
    throw PartFailed{fmt::format("{} returned {} numbers, not {}", what, is_list(value) ? list_size(value) : 0, size)};
  std::vector<double> numbers = doubles_of(value);
  for (std::size_t i = 0; i < numbers.size(); ++i)
    if (std::isnan(numbers[i]) || (finite && !std::isfinite(numbers[i])))
      throw PartFailed{fmt::format("{} returned {} at entry {}", what, numbers[i], i)};
  return numbers;
}

}  // namespace

const std::vector<std::string>& loop_problems() {
  static const std::vector<std::string> problems = {"repetition_penalty", "temperature",         "top_k", "top_p",
                                                    "kv_cache",           "speculative_decoding"};
  return problems;
}

Parts::Parts(std::vector<PartOwner> owners, const std::map<std::string, std::string>& binaries)
    : owners_(std::move(owners)) {
  RunnerLimits limits;
  limits.cpu_seconds = 600;  // a whole generation, many calls
  for (const auto& [problem, binary] : binaries) {
    runners_[problem] = std::make_unique<RunnerSession>(binary, limits);
    runners_[problem]->start_early();
  }
}

Parts::~Parts() {
  for (auto& [problem, runner] : runners_) runner->stop();
}

const PartOwner& Parts::owner(const std::string& problem) const {
  for (const PartOwner& o : owners_)
    if (o.problem == problem) return o;
  throw JudgeFault{"the lab has no part for " + problem};
}

json Parts::call(const std::string& problem, const std::string& op, const json& args, int time_limit_ms) {
  auto runner = runners_.find(problem);
  if (runner == runners_.end()) throw JudgeFault{"the lab has no runner for " + problem};
  CallResult result = runner->second->call(Request(op, args), time_limit_ms);
  if (result.outcome == CallResult::Outcome::kValue) return std::move(result.value);
  // A harness error from a runner of the learner's may be the learner's
  // code writing one on the channel: it is that part's failure, not the
  // judge's. From the reference's runner, and for a runner that could not
  // start or get a CPU, it is the judge's.
  const bool harness_error = result.outcome == CallResult::Outcome::kHarnessError;
  if (result.outcome == CallResult::Outcome::kNotStarted || result.outcome == CallResult::Outcome::kStarved ||
      (harness_error && !owner(problem).learners))
    throw JudgeFault{fmt::format("the lab's {} runner could not answer {}: {}", problem, op, result.detail)};
  // lab_attention and lab_beam_search are the harness's ops around the
  // learner's attention_step and beam_search.
  const std::string function = op == "lab_attention" ? "attention_step" : op == "lab_beam_search" ? "beam_search" : op;
  throw PartFailed{fmt::format("{} {} {}", whose(problem), function, failure_text(result, time_limit_ms))};
}

std::string Parts::whose(const std::string& problem) const {
  return owner(problem).learners ? "your" : "the reference's";
}

std::vector<double> Parts::penalize(const std::vector<double>& logits, const std::vector<int>& generated,
                                    double penalty) {
  json reply = call("repetition_penalty", "apply_repetition_penalty",
                    {{"logits", logits}, {"generated_ids", generated}, {"penalty", penalty}});
  return doubles_reply(reply, logits.size(), whose("repetition_penalty") + " " + "apply_repetition_penalty");
}

std::vector<double> Parts::temper(const std::vector<double>& logits, double temperature) {
  json reply = call("temperature", "softmax_with_temperature", {{"logits", logits}, {"temperature", temperature}});
  return doubles_reply(reply, logits.size(), whose("temperature") + " " + "softmax_with_temperature");
}

std::vector<double> Parts::filter(const std::vector<double>& logits, const Filter& filter) {
  if (filter.kind == Filter::Kind::kNone) return softmax(logits);
  const bool top_k = filter.kind == Filter::Kind::kTopK;
  json reply = top_k ? call("top_k", "top_k_probs", {{"logits", logits}, {"k", filter.k}})
                     : call("top_p", "top_p_probs", {{"logits", logits}, {"p", filter.p}});
  return doubles_reply(reply, logits.size(), top_k ? whose("top_k") + " top_k_probs" : whose("top_p") + " top_p_probs");
}

int Parts::sample(const std::vector<double>& logits, const Filter& filter, std::uint64_t seed) {
  const bool top_k = filter.kind == Filter::Kind::kTopK;
  json seeds = json::array({seed});
  json reply =
      top_k ? call("top_k", "top_k_sample", {{"logits", logits}, {"k", filter.k}, {"seeds", seeds}})
            : call("top_p", "top_p_sample",
                   {{"logits", logits}, {"p", filter.kind == Filter::Kind::kTopP ? filter.p : 1.0}, {"seeds", seeds}});
  const std::string op = top_k ? whose("top_k") + " top_k_sample" : whose("top_p") + " top_p_sample";
  if (!reply.is_array() || reply.size() != 1 || !reply[0].is_number_integer())
    throw PartFailed{op + " did not return one token id"};
  const long token = reply[0].get<long>();
  if (token < 0 || token >= static_cast<long>(logits.size()))
    throw PartFailed{fmt::format("{} returned token {}, outside [0, {})", op, token, logits.size())};
  return static_cast<int>(token);
}

Eigen::VectorXd Parts::attend(int cache, int keep, int capacity, int n_heads, int n_kv_heads, const Eigen::VectorXd& q,
                              const Eigen::VectorXd& k, const Eigen::VectorXd& v) {
  json reply = call("kv_cache", "lab_attention",
                    {{"cache", cache},
                     {"keep", keep},
                     {"capacity", capacity},
                     {"n_heads", n_heads},
                     {"n_kv_heads", n_kv_heads},
                     {"head_dim", k.size() / n_kv_heads},
                     {"q", vector_json(q)},
                     {"k", vector_json(k)},
                     {"v", vector_json(v)}});
  if (!reply.is_object() || !reply.contains("output") || !reply["length"].is_number_integer())
    throw PartFailed{whose("kv_cache") + " attention_step's reply is not what the harness sends"};
  std::vector<double> out =
      doubles_reply(reply["output"], static_cast<std::size_t>(q.size()),
                    fmt::format("{} attention_step ({}layer {})", whose("kv_cache"),
                                cache >= kDraftCaches ? "the draft's " : "", cache % kDraftCaches),
                    true);
  caches_[cache] = CacheReport{reply["length"].get<int>(), reply["bytes"].get<long>()};
  return Eigen::Map<Eigen::VectorXd>(out.data(), static_cast<Eigen::Index>(out.size()));
}

std::vector<int> Parts::accept(const std::vector<int>& drafts, const Eigen::MatrixXd& draft_probs,
                               const Eigen::MatrixXd& target_probs, std::uint64_t seed) {
  json reply = call("speculative_decoding", "speculative_accept",
                    {{"draft_tokens", drafts},
                     {"draft_probs", matrix_json(draft_probs)},
                     {"target_probs", matrix_json(target_probs)},
                     {"seed", seed}});
  if (!reply.is_array() || reply.empty() || reply.size() > drafts.size() + 1)
    throw PartFailed{fmt::format("{} speculative_accept returned {} tokens, not 1 to {}", whose("speculative_decoding"),
                                 reply.is_array() ? reply.size() : 0, drafts.size() + 1)};
  std::vector<int> out;
  for (const json& t : reply) {
    if (!t.is_number_integer() || t.get<long>() < 0 || t.get<long>() >= target_probs.cols())
      throw PartFailed{whose("speculative_decoding") + " speculative_accept returned a token outside the vocabulary"};
    out.push_back(t.get<int>());
  }
  return out;
}

BeamReply Parts::beam(const judge_harness::lab_model::Model& model, const std::vector<int>& prompt, int beam_width,
                      int max_new_tokens, int eos_id, double length_penalty) {
  const judge_harness::lab_model::Shape& s = model.shape();
  const json shape = {s.vocab, s.context, s.d_model, s.n_layers, s.n_heads, s.n_kv_heads, s.head_dim, s.d_ff};
  json reply = call("beam_search", "lab_beam_search",
                    {{"model", {{"shape", shape}, {"values", model.values()}}},
                     {"prompt", prompt},
                     {"beam_width", beam_width},
                     {"max_new_tokens", max_new_tokens},
                     {"eos_id", eos_id},
                     {"length_penalty", length_penalty}},
                    kBeamTimeLimitMs);
  const std::string who = whose("beam_search") + " beam_search";
  if (!reply.is_object() || !reply["hypotheses"].is_array() || !reply["model_calls"].is_number_integer())
    throw PartFailed{who + "'s reply is not what the harness sends"};
  BeamReply out;
  out.model_calls = reply["model_calls"].get<long>();
  if (reply["hypotheses"].size() > static_cast<std::size_t>(beam_width))
    throw PartFailed{fmt::format("{} returned {} hypotheses, more than the beam width ({})", who,
                                 reply["hypotheses"].size(), beam_width)};
  for (const json& h : reply["hypotheses"]) {
    BeamReply::Hypothesis hypothesis;
    const std::size_t rank = out.hypotheses.size() + 1;
    if (!h.is_object() || !h["tokens"].is_array() || !h["log_prob"].is_number() || !h["score"].is_number())
      throw PartFailed{fmt::format("{}'s hypothesis {} is not what the harness sends", who, rank)};
    for (const json& t : h["tokens"]) {
      if (!t.is_number_integer() || t.get<long>() < 0 || t.get<long>() >= s.vocab)
        throw PartFailed{fmt::format("{}'s hypothesis {} holds a token outside the vocabulary", who, rank)};
      hypothesis.tokens.push_back(t.get<int>());
    }
    if (static_cast<int>(hypothesis.tokens.size()) > max_new_tokens)
      throw PartFailed{fmt::format("{}'s hypothesis {} has {} tokens, more than max_new_tokens ({})", who, rank,
                                   hypothesis.tokens.size(), max_new_tokens)};
    hypothesis.log_prob = h["log_prob"].get<double>();
    hypothesis.score = h["score"].get<double>();
    out.hypotheses.push_back(std::move(hypothesis));
  }
  return out;
}

std::vector<double> softmax(const std::vector<double>& logits) {
  double top = -std::numeric_limits<double>::infinity();
  for (double z : logits)
    if (std::isfinite(z)) top = std::max(top, z);
  std::vector<double> p(logits.size());
  double sum = 0;
  for (std::size_t i = 0; i < logits.size(); ++i)
    sum += p[i] = std::isfinite(logits[i]) ? std::exp(logits[i] - top) : 0;
  for (double& x : p) x /= sum;
  return p;
}

}  // namespace judge::lab
