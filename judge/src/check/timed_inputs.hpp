// The inputs of a performance case's timed calls. Each timed call gets an
// input of its own that the learner's runner has not seen, so that no memo
// of earlier inputs (the last one, or a few keyed by a hash) can answer it
// without the work being timed: a variant of the case's input
// (input_variant in package/typed_values.hpp), its generators drawing from
// other seeds and the seeds that check_args.reseed names replaced, so of
// the same kind and size. The reference is timed on the same inputs, call
// by call. A variant within the problem's margin of a decision boundary
// (problem.yaml `margin`) is passed over for the next one.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "check/checker.hpp"

namespace judge {

// Why the loaded case `test` cannot give its timed calls inputs of their
// own: check_args.reseed is not a list of paths of unsigned integers of
// its input, or the input has neither a seeded generator nor a reseeded
// seed. nullopt when it can.
std::optional<std::string> timed_inputs_problem(const TestCase& test);

class TimedInputs {
 public:
  // For the case of `context`, whose input as written (generators as
  // descriptions) is context.written_input, or context.test.input when
  // that is null. `context` must outlive this.
  explicit TimedInputs(CheckContext& context);

  // The next timed call's input, generators expanded, a generated list as
  // the channel's typed array (run/wire_format.hpp): for a Request, which
  // sends it as it is. Throws JudgeFault
  // when the case's input cannot vary (a context without its written
  // input), or when eight variants in a row fall within the margin.
  nlohmann::json next();

  // The input next() returned last, as its file would give it (generators
  // as descriptions), for a message about that call.
  nlohmann::json last_as_written() const;

 private:
  bool keeps_margin(const nlohmann::json& input) const;

  CheckContext& context_;
  nlohmann::json written_;
  std::vector<std::string> reseeded_;
  std::uint64_t variant_ = 0;
};

}  // namespace judge
