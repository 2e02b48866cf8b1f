#include "lab/evaluation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace judge::lab {
namespace {

// Where window `i` of `windows` starts, `size` tokens each.
std::size_t window_start(std::size_t tokens, int windows, int size, int i) {
  const std::size_t room = tokens > static_cast<std::size_t>(size) + 1 ? tokens - size - 1 : 0;
  return windows > 1 ? room / static_cast<std::size_t>(windows) * static_cast<std::size_t>(i) : 0;
}

double log_softmax_at(const Eigen::VectorXd& logits, int token) {
  const double top = logits.maxCoeff();
  return logits(token) - top - std::log((logits.array() - top).exp().sum());
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

std::vector<CacheCost> cache_cost(const Model& model, const std::vector<int>& positions, int repeats) {
  const std::vector<int> text = encode(
      "The kernel schedules each process in turn; a process that waits for input sleeps until the device wakes it.");
  auto token_at = [&](int i) { return text[static_cast<std::size_t>(i) % text.size()]; };
  std::vector<CacheCost> costs;
  for (int position : positions) {
    if (position < 0 || position >= model.shape().context) continue;
    std::vector<double> with, without;
    for (int r = 0; r < repeats; ++r) {
      CausalAttention cached(model.shape());
      const auto attend_cached = [&](int l, const Eigen::VectorXd& q, const Eigen::VectorXd& k,
                                     const Eigen::VectorXd& v) { return cached.step(l, q, k, v); };
      for (int i = 0; i < position; ++i) model.next_logits(token_at(i), i, attend_cached);
      auto start = std::chrono::steady_clock::now();
      model.next_logits(token_at(position), position, attend_cached);
      with.push_back(milliseconds_since(start));
      start = std::chrono::steady_clock::now();
      CausalAttention fresh(model.shape());
      const auto attend_fresh = [&](int l, const Eigen::VectorXd& q, const Eigen::VectorXd& k,
                                    const Eigen::VectorXd& v) { return fresh.step(l, q, k, v); };
      for (int i = 0; i <= position; ++i) model.next_logits(token_at(i), i, attend_fresh);
      without.push_back(milliseconds_since(start));
    }
    costs.push_back({position, median(with), median(without)});
  }
  return costs;
}

double model_loss(const Model& model, const std::vector<int>& tokens, int windows) {
  const int size = model.shape().context;
  double total = 0;
  long count = 0;
  for (int w = 0; w < windows; ++w) {
    const std::size_t start = window_start(tokens.size(), windows, size, w);
    CausalAttention attention(model.shape());
    const auto attend = [&](int layer, const Eigen::VectorXd& q, const Eigen::VectorXd& k, const Eigen::VectorXd& v) {
      return attention.step(layer, q, k, v);
    };
    for (int i = 0; i < size && start + i + 1 < tokens.size(); ++i) {
      const Eigen::VectorXd logits = model.next_logits(tokens[start + i], i, attend);
      total -= log_softmax_at(logits, tokens[start + i + 1]);
      ++count;
    }
  }
  return count > 0 ? total / static_cast<double>(count) : 0;
}

double bigram_loss(const std::vector<int>& training, const std::vector<int>& tokens, int windows, int window_size) {
  const int v = kAlphabetSize;
  std::vector<double> pairs(static_cast<std::size_t>(v * v), 1.0);
  std::vector<double> rows(static_cast<std::size_t>(v), static_cast<double>(v));
  for (std::size_t i = 0; i + 1 < training.size(); ++i) {
    pairs[static_cast<std::size_t>(training[i] * v + training[i + 1])] += 1;
    rows[static_cast<std::size_t>(training[i])] += 1;
  }
  double total = 0;
  long count = 0;
  for (int w = 0; w < windows; ++w) {
    const std::size_t start = window_start(tokens.size(), windows, window_size, w);
    for (int i = 0; i < window_size && start + i + 1 < tokens.size(); ++i) {
      const auto a = static_cast<std::size_t>(tokens[start + i]), b = static_cast<std::size_t>(tokens[start + i + 1]);
      total -= std::log(pairs[a * v + b] / rows[a]);
      ++count;
    }
  }
  return count > 0 ? total / static_cast<double>(count) : 0;
}

}  // namespace judge::lab
