#include "lab/model.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "util/errors.hpp"
#include "util/files.hpp"

namespace judge::lab {
namespace {

constexpr char kMagic[] = "JLABMDL1";
constexpr double kLayerNormEpsilon = 1e-5;  // torch.nn.LayerNorm's

// Reads the little-endian words and float32 tensors of a weights file,
// naming the file and what ran short.
class WeightsReader {
 public:
  WeightsReader(std::string path, std::string bytes) : path_(std::move(path)), bytes_(std::move(bytes)) {}

  std::uint32_t word(const char* what) {
    std::uint32_t value = 0;
    take(&value, sizeof value, what);
    return value;
  }
  void magic() {
    if (bytes_.compare(0, 8, kMagic) != 0)
      throw JudgeFault{fmt::format("{}: not a weights file of the lab (it does not start with {})", path_, kMagic)};
    at_ = 8;
  }
  Eigen::MatrixXd matrix(long rows, long cols, const char* what) {
    std::vector<float> values(static_cast<std::size_t>(rows * cols));
    take(values.data(), values.size() * sizeof(float), what);
    Eigen::MatrixXd out(rows, cols);
    for (long r = 0; r < rows; ++r)
      for (long c = 0; c < cols; ++c) out(r, c) = values[static_cast<std::size_t>(r * cols + c)];
    return out;
  }
  Eigen::VectorXd vector(long size, const char* what) { return matrix(size, 1, what).col(0); }
  bool at_end() const { return at_ == bytes_.size(); }
  const std::string& path() const { return path_; }

 private:
  void take(void* out, std::size_t size, const char* what) {
    if (bytes_.size() - at_ < size)
      throw JudgeFault{
          fmt::format("{}: ends inside {} (byte {} of {}): the file is cut short", path_, what, at_, bytes_.size())};
    std::memcpy(out, bytes_.data() + at_, size);
    at_ += size;
  }
  std::string path_, bytes_;
  std::size_t at_ = 0;
};

Eigen::VectorXd layer_norm(const Eigen::VectorXd& x, const Eigen::VectorXd& w, const Eigen::VectorXd& b) {
  const double mean = x.mean();
  const Eigen::VectorXd centred = x.array() - mean;
  const double variance = centred.squaredNorm() / static_cast<double>(x.size());
  return (centred / std::sqrt(variance + kLayerNormEpsilon)).cwiseProduct(w) + b;
}

// torch's default GELU, the exact one.
Eigen::VectorXd gelu(const Eigen::VectorXd& x) {
  return x.unaryExpr([](double v) { return 0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0))); });
}

ModelShape read_shape(WeightsReader& in) {
  ModelShape s;
  for (int* field : {&s.vocab, &s.context, &s.d_model, &s.n_layers, &s.n_heads, &s.n_kv_heads, &s.head_dim, &s.d_ff})
    *field = static_cast<int>(in.word("a model's shape"));
  const bool sane = s.vocab == kAlphabetSize && s.context > 0 && s.context <= 1 << 16 && s.d_model > 0 &&
                    s.d_model <= 4096 && s.n_layers > 0 && s.n_layers <= 64 && s.n_kv_heads > 0 &&
                    s.n_heads % s.n_kv_heads == 0 && s.n_heads > 0 && s.head_dim > 0 && s.head_dim <= 1024 &&
                    s.d_ff > 0 && s.d_ff <= 1 << 16;
  if (!sane)
    throw JudgeFault{
        fmt::format("{}: a model's shape makes no sense (vocab {}, context {}, d_model {}, layers {}, "
                    "heads {}, kv heads {}, head_dim {}, d_ff {})",
                    in.path(), s.vocab, s.context, s.d_model, s.n_layers, s.n_heads, s.n_kv_heads, s.head_dim, s.d_ff)};
  return s;
}

}  // namespace

int token_of(char c) {
  if (c == '\n') return 0;
  if (c >= 32 && c <= 126) return c - 31;
  return -1;
}

char char_of(int token) { return token == 0 ? '\n' : static_cast<char>(token + 31); }

std::vector<int> encode(const std::string& text) {
  std::vector<int> tokens;
  for (char c : text)
    if (int t = token_of(c); t >= 0) tokens.push_back(t);
  return tokens;
}

std::string decode(const std::vector<int>& tokens) {
  std::string text;
  for (int t : tokens) text += char_of(t);
  return text;
}

long Model::parameter_count() const {
  long count = token_embedding_.size() + position_embedding_.size() + final_w_.size() + final_b_.size();
  for (const Layer& l : layers_)
    count += l.ln1_w.size() + l.ln1_b.size() + l.ln2_w.size() + l.ln2_b.size() + l.b1.size() + l.b2.size() +
             l.wq.size() + l.wk.size() + l.wv.size() + l.wo.size() + l.w1.size() + l.w2.size();
  return count;
}

Eigen::VectorXd Model::next_logits(int token, int position, const AttentionStep& attend) const {
  Eigen::VectorXd x = token_embedding_.row(token).transpose() + position_embedding_.row(position).transpose();
  for (int i = 0; i < shape_.n_layers; ++i) {
    const Layer& l = layers_[static_cast<std::size_t>(i)];
    const Eigen::VectorXd h = layer_norm(x, l.ln1_w, l.ln1_b);
    x += l.wo * attend(i, l.wq * h, l.wk * h, l.wv * h);
    x += l.w2 * gelu(l.w1 * layer_norm(x, l.ln2_w, l.ln2_b) + l.b1) + l.b2;
  }
  return token_embedding_ * layer_norm(x, final_w_, final_b_);  // the output embedding is the input's
}

std::vector<Model> Model::load(const std::string& path) {
  std::optional<std::string> bytes = read_file(path);
  if (!bytes) throw JudgeFault{fmt::format("{}: cannot read the lab's weights", path)};
  WeightsReader in(path, std::move(*bytes));
  in.magic();
  const std::uint32_t count = in.word("the number of models");
  if (count < 1 || count > 8) throw JudgeFault{fmt::format("{}: {} models, expected 1 to 8", path, count)};
  std::vector<Model> models(count);
  for (Model& m : models) {
    const ModelShape s = m.shape_ = read_shape(in);
    const long attn = static_cast<long>(s.n_heads) * s.head_dim, kv = static_cast<long>(s.n_kv_heads) * s.head_dim;
    m.token_embedding_ = in.matrix(s.vocab, s.d_model, "the token embedding");
    m.position_embedding_ = in.matrix(s.context, s.d_model, "the position embedding");
    for (int i = 0; i < s.n_layers; ++i) {
      Layer l;
      l.ln1_w = in.vector(s.d_model, "a layer norm");
      l.ln1_b = in.vector(s.d_model, "a layer norm");
      l.wq = in.matrix(attn, s.d_model, "a query projection");
      l.wk = in.matrix(kv, s.d_model, "a key projection");
      l.wv = in.matrix(kv, s.d_model, "a value projection");
      l.wo = in.matrix(s.d_model, attn, "an output projection");
      l.ln2_w = in.vector(s.d_model, "a layer norm");
      l.ln2_b = in.vector(s.d_model, "a layer norm");
      l.w1 = in.matrix(s.d_ff, s.d_model, "a feed-forward matrix");
      l.b1 = in.vector(s.d_ff, "a feed-forward bias");
      l.w2 = in.matrix(s.d_model, s.d_ff, "a feed-forward matrix");
      l.b2 = in.vector(s.d_model, "a feed-forward bias");
      m.layers_.push_back(std::move(l));
    }
    m.final_w_ = in.vector(s.d_model, "the final layer norm");
    m.final_b_ = in.vector(s.d_model, "the final layer norm");
  }
  if (!in.at_end()) throw JudgeFault{fmt::format("{}: bytes after the last model: not the file the lab knows", path)};
  return models;
}

CausalAttention::CausalAttention(const ModelShape& shape) : shape_(shape) {
  const long width = static_cast<long>(shape.n_kv_heads) * shape.head_dim;
  keys_.assign(static_cast<std::size_t>(shape.n_layers), Eigen::MatrixXd::Zero(shape.context, width));
  values_ = keys_;
  length_.assign(static_cast<std::size_t>(shape.n_layers), 0);
}

Eigen::VectorXd CausalAttention::step(int layer, const Eigen::VectorXd& q, const Eigen::VectorXd& k,
                                      const Eigen::VectorXd& v) {
  const auto i = static_cast<std::size_t>(layer);
  const int d = shape_.head_dim, group = shape_.n_heads / shape_.n_kv_heads;
  if (length_[i] >= shape_.context) throw JudgeFault{"the lab's attention cache is full"};
  keys_[i].row(length_[i]) = k.transpose();
  values_[i].row(length_[i]) = v.transpose();
  const int t = ++length_[i];
  Eigen::VectorXd out(q.size());
  for (int h = 0; h < shape_.n_heads; ++h) {
    const int g = h / group;
    const auto keys = keys_[i].block(0, g * d, t, d);
    Eigen::VectorXd scores = keys * q.segment(h * d, d) / std::sqrt(static_cast<double>(d));
    scores = (scores.array() - scores.maxCoeff()).exp();
    scores /= scores.sum();
    out.segment(h * d, d) = values_[i].block(0, g * d, t, d).transpose() * scores;
  }
  return out;
}

void CausalAttention::truncate(int length) {
  for (int& l : length_) l = std::min(l, length);
}

}  // namespace judge::lab
