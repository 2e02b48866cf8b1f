// See beam_search_support.hpp: the learner's beam_search on the lab's model.
#include <judge_harness/beam_search_support.hpp>
#include <judge_harness/input_watch.hpp>
#include <judge_harness/lab_model.hpp>
#include <judge_harness/runner.hpp>

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace judge_harness::beam_search_support {
namespace {
namespace lm = judge_harness::lab_model;

// The model's next-token log-probabilities for whole sequences, as
// LogProbFn asks for them. A beam asks for each hypothesis once a step, and
// each shares all but its last token with one asked before: every prefix's
// keys and values are kept in a trie, so a call costs one token's pass.
class PrefixModel {
 public:
  explicit PrefixModel(lm::Model model) : model_(std::move(model)), attention_(model_.shape()) {}

  std::vector<double> operator()(const std::vector<int>& sequence) {
    const lm::Shape& s = model_.shape();
    if (sequence.empty() || static_cast<int>(sequence.size()) > s.context)
      throw std::invalid_argument("the lab's model reads sequences of 1 to " + std::to_string(s.context) +
                                  " tokens, not " + std::to_string(sequence.size()));
    attention_.truncate(0);
    Node* node = &root_;
    for (std::size_t i = 0; i < sequence.size(); ++i) {
      const int token = sequence[i];
      if (token < 0 || token >= s.vocab)
        throw std::invalid_argument("token " + std::to_string(token) + " is outside the lab's vocabulary");
      std::unique_ptr<Node>& child = node->children[token];
      if (child) {
        for (int layer = 0; layer < s.n_layers; ++layer)
          attention_.append(layer, child->keys[static_cast<std::size_t>(layer)],
                            child->values[static_cast<std::size_t>(layer)]);
      } else {
        child = std::make_unique<Node>();
        child->keys.resize(static_cast<std::size_t>(s.n_layers));
        child->values = child->keys;
        Node* fresh = child.get();
        const Eigen::VectorXd logits = model_.next_logits(
            token, static_cast<int>(i),
            [&](int layer, const Eigen::VectorXd& q, const Eigen::VectorXd& k, const Eigen::VectorXd& v) {
              fresh->keys[static_cast<std::size_t>(layer)] = k;
              fresh->values[static_cast<std::size_t>(layer)] = v;
              return attention_.step(layer, q, k, v);
            });
        const Eigen::VectorXd log_probs = lm::log_softmax(logits);
        fresh->log_probs.assign(log_probs.data(), log_probs.data() + log_probs.size());
      }
      node = child.get();
    }
    ++calls_;
    return node->log_probs;
  }

  long calls() const { return calls_; }

 private:
  struct Node {
    std::map<int, std::unique_ptr<Node>> children;
    std::vector<Eigen::VectorXd> keys, values;  // per layer, this position's
    std::vector<double> log_probs;              // of the token after this one
  };
  lm::Model model_;
  lm::CausalAttention attention_;
  Node root_;
  long calls_ = 0;
};

lm::Model read_lab_model(const Value& description) {
  const std::vector<int> dims = description.at("shape").as_ints();
  if (dims.size() != 8) throw BadRequest{"lab_beam_search: a shape has 8 numbers"};
  const lm::Shape shape{dims[0], dims[1], dims[2], dims[3], dims[4], dims[5], dims[6], dims[7]};
  const std::vector<double>& values = description.at("values").raw_doubles();
  try {
    return lm::Model(shape, std::vector<float>(values.begin(), values.end()));
  } catch (const std::invalid_argument& e) {
    throw BadRequest{std::string("lab_beam_search: ") + e.what()};
  }
}

}  // namespace

Value call_learner_on_lab_model(const Value& args, LearnerBeamSearch* learner) {
  auto model = std::make_shared<PrefixModel>(read_lab_model(args.at("model")));
  const std::vector<int> prompt = arg_ints(args, "prompt");
  LogProbFn fn = [model](const std::vector<int>& sequence) { return (*model)(sequence); };
  std::vector<Hypothesis> hypotheses;
  {
    const InputWatch watch("prompt", prompt);
    hypotheses = learner(fn, prompt, arg_int(args, "beam_width"), arg_int(args, "max_new_tokens"),
                         arg_int(args, "eos_id"), arg_number(args, "length_penalty"));
  }
  return Value::map()
      .set("hypotheses", hypotheses_value(hypotheses))
      .set("model_calls", Value::integer(model->calls()));
}

}  // namespace judge_harness::beam_search_support
