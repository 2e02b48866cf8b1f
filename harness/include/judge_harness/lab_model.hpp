// The lab's language models (judge lab): small decoder-only transformers
// over characters, with grouped-query attention, trained by model/train.py
// and shipped as model/lab_models.bin. This is their inference in plain
// Eigen, one token at a time, with each layer's attention left to the
// caller so that a learner's attention_step can be that step.
//
// Header-only because two programs compile it: the judge, which reads the
// weights file and runs the loop, and the beam_search runner, whose
// learner's beam_search asks the model for log-probabilities from inside
// the sandbox (the weights arrive in the request). Both then compute the
// same numbers from the same code.
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace judge_harness::lab_model {

struct Shape {
  int vocab = 0, context = 0, d_model = 0, n_layers = 0, n_heads = 0, n_kv_heads = 0, head_dim = 0, d_ff = 0;
};

// What makes a shape one the lab cannot run, or "" when it can.
inline std::string shape_fault(const Shape& s) {
  const bool sane = s.vocab > 0 && s.vocab <= 1 << 16 && s.context > 0 && s.context <= 1 << 16 && s.d_model > 0 &&
                    s.d_model <= 4096 && s.n_layers > 0 && s.n_layers <= 64 && s.n_kv_heads > 0 && s.n_heads > 0 &&
                    s.n_heads % s.n_kv_heads == 0 && s.head_dim > 0 && s.head_dim <= 1024 && s.d_ff > 0 &&
                    s.d_ff <= 1 << 16;
  if (sane) return "";
  return "a model's shape makes no sense (vocab " + std::to_string(s.vocab) + ", context " + std::to_string(s.context) +
         ", d_model " + std::to_string(s.d_model) + ", layers " + std::to_string(s.n_layers) + ", heads " +
         std::to_string(s.n_heads) + ", kv heads " + std::to_string(s.n_kv_heads) + ", head_dim " +
         std::to_string(s.head_dim) + ", d_ff " + std::to_string(s.d_ff) + ")";
}

// How many numbers a model of a sane shape has.
inline long parameter_count(const Shape& s) {
  const long d = s.d_model, attn = static_cast<long>(s.n_heads) * s.head_dim,
             kv = static_cast<long>(s.n_kv_heads) * s.head_dim;
  const long layer = 4 * d + 2 * attn * d + 2 * kv * d + 2 * s.d_ff * d + s.d_ff + d;
  return static_cast<long>(s.vocab) * d + static_cast<long>(s.context) * d + s.n_layers * layer + 2 * d;
}

// One layer's attention for the newest token: given its query, key and
// value (laid out as attention_step's q, k and v), append k and v to the
// layer's cache and return the attention output, as attention_step does.
using AttentionStep = std::function<Eigen::VectorXd(int layer, const Eigen::VectorXd& q, const Eigen::VectorXd& k,
                                                    const Eigen::VectorXd& v)>;

class Model {
 public:
  // `values`: the model's parameters in the weights file's order (see
  // model/train.py's export), parameter_count(shape) of them. Throws
  // std::invalid_argument for another shape or count.
  Model(const Shape& shape, std::vector<float> values) : shape_(shape), values_(std::move(values)) {
    if (std::string fault = shape_fault(shape); !fault.empty()) throw std::invalid_argument(fault);
    if (static_cast<long>(values_.size()) != lab_model::parameter_count(shape))
      throw std::invalid_argument("a model of this shape has " + std::to_string(lab_model::parameter_count(shape)) +
                                  " parameters, not " + std::to_string(values_.size()));
    unpack();
  }

  const Shape& shape() const { return shape_; }
  long parameter_count() const { return static_cast<long>(values_.size()); }
  const std::vector<float>& values() const { return values_; }

  // The logits for the token after `token`, which stands at `position`
  // (0-based; below shape().context): every layer's attention goes through
  // `attend`, whose caches must hold the positions before this one.
  Eigen::VectorXd next_logits(int token, int position, const AttentionStep& attend) const {
    Eigen::VectorXd x = token_embedding_.row(token).transpose() + position_embedding_.row(position).transpose();
    for (int i = 0; i < shape_.n_layers; ++i) {
      const Layer& l = layers_[static_cast<std::size_t>(i)];
      const Eigen::VectorXd h = layer_norm(x, l.ln1_w, l.ln1_b);
      x += l.wo * attend(i, l.wq * h, l.wk * h, l.wv * h);
      x += l.w2 * gelu(l.w1 * layer_norm(x, l.ln2_w, l.ln2_b) + l.b1) + l.b2;
    }
    return token_embedding_ * layer_norm(x, final_w_, final_b_);  // the output embedding is the input's
  }

 private:
  struct Layer {
    Eigen::VectorXd ln1_w, ln1_b, ln2_w, ln2_b, b1, b2;
    Eigen::MatrixXd wq, wk, wv, wo, w1, w2;  // out x in, as the trainer stores them
  };

  static Eigen::VectorXd layer_norm(const Eigen::VectorXd& x, const Eigen::VectorXd& w, const Eigen::VectorXd& b) {
    constexpr double kEpsilon = 1e-5;  // torch.nn.LayerNorm's
    const Eigen::VectorXd centred = x.array() - x.mean();
    const double variance = centred.squaredNorm() / static_cast<double>(x.size());
    return (centred / std::sqrt(variance + kEpsilon)).cwiseProduct(w) + b;
  }

  // torch's default GELU, the exact one.
  static Eigen::VectorXd gelu(const Eigen::VectorXd& x) {
    return x.unaryExpr([](double v) { return 0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0))); });
  }

  // The next `rows` x `cols` numbers of values_, row-major.
  Eigen::MatrixXd take(long rows, long cols) {
    Eigen::MatrixXd out(rows, cols);
    for (long r = 0; r < rows; ++r)
      for (long c = 0; c < cols; ++c) out(r, c) = values_[static_cast<std::size_t>(at_++)];
    return out;
  }
  Eigen::VectorXd take(long size) { return take(size, 1).col(0); }

  void unpack() {
    const Shape& s = shape_;
    const long attn = static_cast<long>(s.n_heads) * s.head_dim, kv = static_cast<long>(s.n_kv_heads) * s.head_dim;
    token_embedding_ = take(s.vocab, s.d_model);
    position_embedding_ = take(s.context, s.d_model);
    for (int i = 0; i < s.n_layers; ++i) {
      Layer l;
      l.ln1_w = take(s.d_model);
      l.ln1_b = take(s.d_model);
      l.wq = take(attn, s.d_model);
      l.wk = take(kv, s.d_model);
      l.wv = take(kv, s.d_model);
      l.wo = take(s.d_model, attn);
      l.ln2_w = take(s.d_model);
      l.ln2_b = take(s.d_model);
      l.w1 = take(s.d_ff, s.d_model);
      l.b1 = take(s.d_ff);
      l.w2 = take(s.d_model, s.d_ff);
      l.b2 = take(s.d_model);
      layers_.push_back(std::move(l));
    }
    final_w_ = take(s.d_model);
    final_b_ = take(s.d_model);
  }

  Shape shape_;
  std::vector<float> values_;
  long at_ = 0;                                           // while unpacking
  Eigen::MatrixXd token_embedding_, position_embedding_;  // rows: tokens, positions
  std::vector<Layer> layers_;
  Eigen::VectorXd final_w_, final_b_;
};

// The model's own causal attention, over caches the caller holds.
class CausalAttention {
 public:
  explicit CausalAttention(const Shape& shape) : shape_(shape) {
    const long width = static_cast<long>(shape.n_kv_heads) * shape.head_dim;
    keys_.assign(static_cast<std::size_t>(shape.n_layers), Eigen::MatrixXd::Zero(shape.context, width));
    values_ = keys_;
    length_.assign(static_cast<std::size_t>(shape.n_layers), 0);
  }

  // Appends k and v to `layer`'s cache and attends over it with q.
  Eigen::VectorXd step(int layer, const Eigen::VectorXd& q, const Eigen::VectorXd& k, const Eigen::VectorXd& v) {
    append(layer, k, v);
    const auto i = static_cast<std::size_t>(layer);
    const int d = shape_.head_dim, group = shape_.n_heads / shape_.n_kv_heads, t = length_[i];
    Eigen::VectorXd out(q.size());
    for (int h = 0; h < shape_.n_heads; ++h) {
      const int g = h / group;
      Eigen::VectorXd scores = keys_[i].block(0, g * d, t, d) * q.segment(h * d, d) / std::sqrt(static_cast<double>(d));
      scores = (scores.array() - scores.maxCoeff()).exp();
      scores /= scores.sum();
      out.segment(h * d, d) = values_[i].block(0, g * d, t, d).transpose() * scores;
    }
    return out;
  }

  // Appends a position's key and value without attending: a prefix whose
  // rows were computed before.
  void append(int layer, const Eigen::VectorXd& k, const Eigen::VectorXd& v) {
    const auto i = static_cast<std::size_t>(layer);
    if (length_[i] >= shape_.context) throw std::length_error("the lab's attention cache is full");
    keys_[i].row(length_[i]) = k.transpose();
    values_[i].row(length_[i]) = v.transpose();
    ++length_[i];
  }

  int length() const { return length_.empty() ? 0 : length_[0]; }
  // Forgets every position from `length` on (speculative decoding's rollback).
  void truncate(int length) {
    for (int& l : length_) l = std::min(l, length);
  }

 private:
  Shape shape_;
  std::vector<Eigen::MatrixXd> keys_, values_;  // per layer: context x (n_kv_heads * head_dim)
  std::vector<int> length_;
};

// log(softmax(logits)), computed in log space.
inline Eigen::VectorXd log_softmax(const Eigen::VectorXd& logits) {
  const double top = logits.maxCoeff();
  return logits.array() - (top + std::log((logits.array() - top).exp().sum()));
}

}  // namespace judge_harness::lab_model
