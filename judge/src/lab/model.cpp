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
  std::vector<float> floats(long count, const char* what) {
    std::vector<float> values(static_cast<std::size_t>(count));
    take(values.data(), values.size() * sizeof(float), what);
    return values;
  }
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

ModelShape read_shape(WeightsReader& in) {
  ModelShape s;
  for (int* field : {&s.vocab, &s.context, &s.d_model, &s.n_layers, &s.n_heads, &s.n_kv_heads, &s.head_dim, &s.d_ff})
    *field = static_cast<int>(in.word("a model's shape"));
  if (std::string fault = judge_harness::lab_model::shape_fault(s); !fault.empty())
    throw JudgeFault{fmt::format("{}: {}", in.path(), fault)};
  if (s.vocab != kAlphabetSize)
    throw JudgeFault{
        fmt::format("{}: a model's vocabulary has {} tokens, not the lab's {}", in.path(), s.vocab, kAlphabetSize)};
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

std::vector<Model> load_models(const std::string& path) {
  std::optional<std::string> bytes = read_file(path);
  if (!bytes) throw JudgeFault{fmt::format("{}: cannot read the lab's weights", path)};
  WeightsReader in(path, std::move(*bytes));
  in.magic();
  const std::uint32_t count = in.word("the number of models");
  if (count < 1 || count > 8) throw JudgeFault{fmt::format("{}: {} models, expected 1 to 8", path, count)};
  std::vector<Model> models;
  for (std::uint32_t i = 0; i < count; ++i) {
    const ModelShape shape = read_shape(in);
    models.emplace_back(shape, in.floats(judge_harness::lab_model::parameter_count(shape), "a model's weights"));
  }
  if (!in.at_end()) throw JudgeFault{fmt::format("{}: bytes after the last model: not the file the lab knows", path)};
  return models;
}

}  // namespace judge::lab
