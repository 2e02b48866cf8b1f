// The lab's language models as the judge holds them: the alphabet they read
// and write, and the weights file (model/lab_models.bin) read into the
// inference that judge_harness/lab_model.hpp shares with the beam_search
// runner.
#pragma once

#include <judge_harness/lab_model.hpp>

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

using ModelShape = judge_harness::lab_model::Shape;
using AttentionStep = judge_harness::lab_model::AttentionStep;
using Model = judge_harness::lab_model::Model;
// The model's own causal attention, over caches the judge holds: what
// evaluates the models, and what the draft model attends with.
using CausalAttention = judge_harness::lab_model::CausalAttention;

// Reads the models of a weights file, in order (the target, then the
// draft). Throws JudgeFault naming the file and what is wrong with it.
std::vector<Model> load_models(const std::string& path);

}  // namespace judge::lab
