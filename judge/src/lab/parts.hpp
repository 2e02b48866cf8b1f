// The parts of the decoding loop the lab plugs in: each a problem's
// functions, the learner's (their workspace file, or a file given) or the
// reference's, called in its runner in the sandbox exactly as judging calls
// them. The loop (decoding.hpp) never sees whose part it calls.
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <judge_harness/lab_model.hpp>

#include "run/runner_session.hpp"
#include "util/paths.hpp"

namespace judge::lab {

// The problems the loop calls, in the loop's order: the penalty, the
// temperature, the filters and samplers, the attention step of every
// layer, the verify round of speculative decoding.
const std::vector<std::string>& loop_problems();

// Whose code a part runs.
struct PartOwner {
  std::string problem;
  bool learners = false;
  std::string file;  // as shown: "workspace/top_p.hpp", "the reference"
  std::string why;   // "solved in your workspace", "not solved yet", "--mine", ...
};

// A call of a part that did not return a value (it threw, crashed, timed
// out): the lab stops there and says so.
class PartFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The attention caches of the draft model are numbered from here, its
// layer 0 first; the target's from 0.
inline constexpr int kDraftCaches = 16;

// How the loop filters before it samples.
struct Filter {
  enum class Kind { kNone, kTopK, kTopP } kind = Kind::kNone;
  int k = 0;
  double p = 1;
};

// What the attention parts' caches held when last asked: per cache, its
// length and the bytes of its matrices, as the runner saw them.
struct CacheReport {
  int length = 0;
  long bytes = 0;
};

// What a beam_search part returned: its hypotheses as it ranked them (each
// token in the vocabulary, at most max_new_tokens of them) and how often it
// asked the model.
struct BeamReply {
  struct Hypothesis {
    std::vector<int> tokens;
    double log_prob = 0, score = 0;
  };
  std::vector<Hypothesis> hypotheses;
  long model_calls = 0;
};

class Parts {
 public:
  // One runner per problem, from `binaries` (problem -> runner binary).
  Parts(std::vector<PartOwner> owners, const std::map<std::string, std::string>& binaries);
  ~Parts();
  Parts(const Parts&) = delete;
  Parts& operator=(const Parts&) = delete;

  const std::vector<PartOwner>& owners() const { return owners_; }
  const PartOwner& owner(const std::string& problem) const;
  std::string whose(const std::string& problem) const;  // "your", "the reference's"

  std::vector<double> penalize(const std::vector<double>& logits, const std::vector<int>& generated, double penalty);
  std::vector<double> temper(const std::vector<double>& logits, double temperature);
  // top_k_probs or top_p_probs; the softmax of `logits` with no filter.
  std::vector<double> filter(const std::vector<double>& logits, const Filter& filter);
  // top_k_sample, or top_p_sample (with p = 1 when there is no filter).
  int sample(const std::vector<double>& logits, const Filter& filter, std::uint64_t seed);
  // attention_step on the cache numbered `cache`, cut to `keep` rows first.
  Eigen::VectorXd attend(int cache, int keep, int capacity, int n_heads, int n_kv_heads, const Eigen::VectorXd& q,
                         const Eigen::VectorXd& k, const Eigen::VectorXd& v);
  std::vector<int> accept(const std::vector<int>& drafts, const Eigen::MatrixXd& draft_probs,
                          const Eigen::MatrixXd& target_probs, std::uint64_t seed);

  // beam_search on `model`, which the runner is sent whole.
  BeamReply beam(const judge_harness::lab_model::Model& model, const std::vector<int>& prompt, int beam_width,
                 int max_new_tokens, int eos_id, double length_penalty);

  const std::map<int, CacheReport>& caches() const { return caches_; }

 private:
  // CPU time one call of a part may take: each is one small call (a vector
  // of 96 logits, one attention step over at most a few hundred rows).
  static constexpr int kCallLimitMs = 2000;
  nlohmann::json call(const std::string& problem, const std::string& op, const nlohmann::json& args,
                      int time_limit_ms = kCallLimitMs);
  std::vector<PartOwner> owners_;
  std::map<std::string, std::unique_ptr<RunnerSession>> runners_;
  std::map<int, CacheReport> caches_;
};

// The softmax of `logits` (the loop's own, for showing the raw distribution).
std::vector<double> softmax(const std::vector<double>& logits);

}  // namespace judge::lab
