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

}  // namespace judge::lab
