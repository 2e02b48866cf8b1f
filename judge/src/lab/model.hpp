// The lab's language models: small decoder-only transformers over
// characters, with grouped-query attention, trained by model/train.py and
// shipped as model/lab_models.bin. This is their inference in plain Eigen:
// one token at a time, the attention of each layer left to the caller, so
// that a learner's attention_step (with its KV cache) can be that step.
#pragma once

#include <Eigen/Dense>
#include <functional>
#include <string>
#include <vector>

namespace judge::lab {

// The characters the models read and write: newline and printable ASCII.
constexpr int kAlphabetSize = 96;
// A character's token id, or -1 for a character outside the alphabet.
int token_of(char c);
char char_of(int token);
// The ids of the alphabet's characters of `text`; others are dropped.
std::vector<int> encode(const std::string& text);
std::string decode(const std::vector<int>& tokens);

struct ModelShape {
  int vocab = 0, context = 0, d_model = 0, n_layers = 0, n_heads = 0, n_kv_heads = 0, head_dim = 0, d_ff = 0;
};

// One layer's attention for the newest token: given its query, key and
// value (laid out as attention_step's q, k and v), append k and v to the
// layer's cache and return the attention output, as attention_step does.
using AttentionStep = std::function<Eigen::VectorXd(int layer, const Eigen::VectorXd& q, const Eigen::VectorXd& k,
                                                    const Eigen::VectorXd& v)>;

class Model {
 public:
  const ModelShape& shape() const { return shape_; }
  long parameter_count() const;

  // The logits for the token after `token`, which stands at `position`
  // (0-based; below shape().context): every layer's attention goes through
  // `attend`, whose caches must hold the positions before this one.
  Eigen::VectorXd next_logits(int token, int position, const AttentionStep& attend) const;

  // Reads the models of a weights file, in order (the target, then the
  // draft). Throws JudgeFault naming the file and what is wrong with it.
  static std::vector<Model> load(const std::string& path);

 private:
  struct Layer {
    Eigen::VectorXd ln1_w, ln1_b, ln2_w, ln2_b, b1, b2;
    Eigen::MatrixXd wq, wk, wv, wo, w1, w2;  // out x in, as the trainer stores them
  };
  ModelShape shape_;
  Eigen::MatrixXd token_embedding_, position_embedding_;  // rows: tokens, positions
  std::vector<Layer> layers_;
  Eigen::VectorXd final_w_, final_b_;
};

// The model's own causal attention, over caches the judge holds: what
// evaluates the models, and what the draft model attends with.
class CausalAttention {
 public:
  explicit CausalAttention(const ModelShape& shape);
  Eigen::VectorXd step(int layer, const Eigen::VectorXd& q, const Eigen::VectorXd& k, const Eigen::VectorXd& v);
  int length() const { return length_.empty() ? 0 : length_[0]; }
  // Forgets every position from `length` on (speculative decoding's rollback).
  void truncate(int length);

 private:
  ModelShape shape_;
  std::vector<Eigen::MatrixXd> keys_, values_;  // per layer: context x (n_kv_heads * head_dim)
  std::vector<int> length_;
};

}  // namespace judge::lab
