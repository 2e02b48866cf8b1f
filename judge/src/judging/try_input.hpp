// What `judge try` may run on a problem: the ops a learner can try, how
// each is tried (by value, or as a sampler over many seeds, the way its
// cases are judged), and the learner's own input read as the op's cases
// are read: the op's declared types, generators included, every key checked.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "package/problem.hpp"

namespace judge {

enum class TryMode {
  kValue,      // one call each; the outputs compared by the comparison rule
  kSampler,    // one token a seed over many seeds, against the reference's probs_op
  kLaws,       // speculative rounds with toy models over many seeds, against the laws its checker tests
  kSeedSweep,  // an op of one `seed`, called once a seed; the outputs tallied beside the reference's
};

// "value", "sampler", "laws", "seed_sweep".
std::string try_mode_name(TryMode mode);

struct TryableOp {
  const Operation* op = nullptr;
  TryMode mode = TryMode::kValue;
  std::string check;     // the check of the op's cases that decided the mode ("values" or "hypotheses" for kValue)
  std::string probs_op;  // kSampler: the op whose answer is the expected distribution
  nlohmann::json check_args = nlohmann::json::object();  // of the case that decided the mode
  std::string seed_input;             // the sampled modes: the input the judge supplies ("seeds" or "seed")
  const TestCase* example = nullptr;  // a sample case of the op (never a hidden one), or null
};

// The ops a learner may try, in the order the problem declares them: those
// a case of the problem calls (its `op:`), except those called only by
// timed checks (growth, performance), whose answers are times. The others
// (probability oracles, boundary margins) are the judge's own.
std::vector<TryableOp> tryable_ops(const Problem& problem);

// The op `name` of `problem`; the first tryable op when `name` is empty.
// Throws JudgeFault ("--op: ...") naming the ops that can be tried when
// `name` is not one of them.
TryableOp choose_op(const Problem& problem, const std::string& name);

// "logits: doubles, p: number": the inputs a learner gives `op`.
std::string inputs_text(const TryableOp& op);

// The case a try stands for, named "try": the op, `input`, the op's check
// and check_args, the problem's tolerance and time limit.
TestCase try_case(const Problem& problem, const TryableOp& op, const nlohmann::json& input);

struct TryInput {
  nlohmann::json args = nlohmann::json::object();  // the inputs given, generators expanded
  // kSeedSweep with the seed given: the op runs once, by value.
  bool seed_given = false;
};

// Reads `text` as the input of `op`: the YAML in the file `text` names when
// there is such a file, else `text` itself. It must be a mapping of
// exactly the op's inputs, less those the judge supplies (a seed_sweep
// op's `seed` may be given). Throws SpecError naming the place and the key
// ("--input:1:19: key 'p': expected a number (...), got 'abc'", "--input:
// missing key 'p' (op top_p_probs takes logits: doubles, p: number)"), and
// for an input the op's check does not accept, the check's reason.
TryInput read_try_input(const Problem& problem, const TryableOp& op, const std::string& text);

}  // namespace judge
