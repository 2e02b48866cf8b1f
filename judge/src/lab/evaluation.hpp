// How good the lab's models are, in nats per character on text they never
// saw, beside the bigram model of the same training text: what shows the
// shipped weights are a real model (tests/lab_model_test.cpp, docs/lab.md).
#pragma once

#include <string>
#include <vector>

#include "lab/model.hpp"

namespace judge::lab {

// The model's mean cross-entropy over `windows` windows of `tokens`, evenly
// spaced, each read from its start with a fresh cache (the trainer's
// held-out figure is measured the same way).
double model_loss(const Model& model, const std::vector<int>& tokens, int windows);

// A bigram model counted on `training` (add-one smoothing): its mean
// cross-entropy over the same windows of `tokens` (window_size: the
// model's context), predicting what the model predicts: every character of
// a window after its first.
double bigram_loss(const std::vector<int>& training, const std::vector<int>& tokens, int windows, int window_size);

// What one generated token costs at a position, with the KV cache (one
// forward step; attention over the cached rows) and without it (the whole
// prefix read again, as a decoder without a cache must): milliseconds,
// the median of `repeats` measurements, with the model's own attention.
struct CacheCost {
  int position = 0;
  double with_cache_ms = 0, without_cache_ms = 0;
};
std::vector<CacheCost> cache_cost(const Model& model, const std::vector<int>& positions, int repeats);

}  // namespace judge::lab
