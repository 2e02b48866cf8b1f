// A problem as the judge sees it: the spec, its ops and its cases, loaded
// from problem.yaml and hidden/*.yaml with every key checked.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "package/layout.hpp"
#include "package/tolerance.hpp"
#include "package/value_type.hpp"
#include "util/errors.hpp"

namespace judge {

// An index that several inputs of an op share, declared in problem.yaml
// (`shrink:` under the op) because types alone do not say it: a
// vocabulary (the columns of every probability row, the token ids that
// name them), the drafts of a speculative round (a token, a draft row and a
// target row each). Shrinking drops indices of an axis from all of them at
// once, so that a smaller input stays consistent. Paths name places in the
// op's inputs: `model.rows[].probs` is member `probs` of every entry of
// member `rows` of input `model`.
struct SharedAxis {
  std::string name;
  std::string size;                  // path of an integer holding the axis' length; empty: the first entries' length
  std::vector<std::string> entries;  // paths of lists with an entry per index (more entries after them are kept)
  std::vector<std::string> ids;      // paths of integers, or lists of integers, that name an index
  bool distributions = false;        // each list of `entries` sums to 1 and is renormalized after a drop
};

// Heads that several inputs of an op lay out side by side, declared in
// problem.yaml (`shrink:` under the op, an entry with `heads:`): `heads`
// query heads in `groups` equal groups, each group reading one key/value
// head, every head `width` numbers wide. A list of `per_head` holds the
// query heads one after another (heads x width numbers; a matrix, each of
// its rows); a list of `per_group` holds one head per group (groups x
// width). Shrinking drops a group with its query heads, makes the groups
// smaller or the heads narrower, and keeps every such list consistent;
// `same_as_heads` names integers that equal `heads` and follow it (a last
// call's head count). Each of `heads`, `groups` and `width` is the path of
// an integer input.
struct HeadAxis {
  std::string name;
  std::string heads;
  std::string groups;
  std::string width;
  std::vector<std::string> per_head;
  std::vector<std::string> per_group;
  std::vector<std::string> same_as_heads;
};

struct Operation {
  std::string name;
  std::vector<std::pair<std::string, ValueType>> inputs;  // in spec order
  ValueType output = ValueType::kAny;
  std::vector<SharedAxis> axes;     // problem.yaml `shrink:`
  std::vector<HeadAxis> head_axes;  // problem.yaml `shrink:`, the entries with `heads:`
  // problem.yaml `fixed_answer:`: a trusted op of the adapter that takes
  // this op's input and returns the answer every seed gives (null when the
  // draws decide). A case of this op with a stored `expect` checked over
  // many seeds is then shrunk to smaller inputs with such an answer, which
  // becomes each smaller input's expectation. Empty: none.
  std::string fixed_answer;
};

// A place in a problem file, 1-based, for messages.
struct Place {
  std::string file;
  int line = 0;
  int column = 0;
};

struct TestCase {
  std::string name;
  std::string note;  // what the case tests
  bool hidden = false;
  std::string op;
  nlohmann::json input;  // a map of argument name to value (generators already expanded)
  // `then`: the inputs of more calls after `input`, in order, each a map
  // like `input` (a `sequence` case: docs/problem-format.md).
  std::vector<nlohmann::json> then;
  std::optional<nlohmann::json> expect;  // absent: computed with the reference
  bool expects_invalid_argument = false;
  std::string check = "values";
  nlohmann::json check_args = nlohmann::json::object();
  Tolerance tolerance;
  int time_ms = 0;
  bool exact_boundary = false;  // sits on a decision boundary on purpose (exact in binary)
  Place place;
};

// How far an input must stay from the problem's decision boundaries (e.g.
// a top-p prefix sum from p), measured by a trusted op of the adapter
// (docs/problem-format.md, "Boundary margins"). The op takes inputs of the
// measured ops, by name, and returns a number: the absolute distance from
// the input to the nearest boundary, in the units of the quantity compared
// with the threshold (never relative), or +infinity when no boundary can
// change the answer. NaN or a negative distance is a broken op.
struct MarginRule {
  std::string op;                       // outputs `number`; each of its inputs is an input of every op in applies_to
  double min = 0;                       // > 0 and finite; a case closer than this fails `judge validate`
  std::vector<std::string> applies_to;  // ops whose cases are measured
};

struct Problem {
  std::string slug;
  std::string title;
  int order = 0;
  std::string statement;
  std::string signature;
  std::vector<Operation> ops;
  int time_ms = 2000;
  int memory_mb = 1024;
  Tolerance tolerance;
  std::optional<MarginRule> margin;
  std::vector<TestCase> samples;
  std::vector<TestCase> hidden;
  Package package;  // its files: problem.yaml, the cases, the reference, the adapter, ...

  const Operation* find_op(const std::string& name) const;
  // Samples first, then hidden cases in file order.
  std::vector<const TestCase*> cases() const;
};

// What loading needs to know about the check a case names (`check:`): the
// inputs that check supplies itself (a case must not give them) and whether
// the case suits it. The checkers provide it (check/registry.hpp); loading
// a problem knows only this interface.
class CaseRules {
 public:
  virtual ~CaseRules() = default;
  // Every check a case may name, sorted.
  virtual std::vector<std::string> check_names() const = 0;
  virtual bool knows(const std::string& check) const = 0;
  // For a known check.
  virtual std::vector<std::string> supplied_inputs(const TestCase& test) const = 0;
  // Whether the check makes more calls than `input`'s, listed under `then`.
  virtual bool takes_then(const TestCase& test) const = 0;
  // Why `test` does not suit its (known) check, or nullopt when it does.
  virtual std::optional<std::string> problem_with(const TestCase& test, const Operation& op) const = 0;
};

// `test` with the generators of `input` and of every call of `then`
// replaced by their values (materialize_input), as a checker gets it.
TestCase with_inputs_expanded(const TestCase& test);

// Loads the problem of `package` (package/layout.hpp), checking each case
// against `rules`. Throws SpecError with "file:line:column: message".
Problem load_problem(const Package& package, const CaseRules& rules);

// The problem `slug`. Throws JudgeFault "unknown problem 'x'; the problems
// are: ..." when there is none, SpecError when its files are malformed.
Problem load_problem_by_slug(const Paths& paths, const std::string& slug, const CaseRules& rules);

// A problem that could not be loaded: its folder's name and why.
struct BrokenProblem {
  std::string slug;
  std::string error;  // "file:line:column: message"
};

// Every problem under `paths.problems_dir`, in course order (by `order`,
// then slug). Throws SpecError when a problem.yaml cannot be read, unless
// `broken` is given: then the others load and each that fails is listed there.
std::vector<Problem> load_all_problems(const Paths& paths, const CaseRules& rules,
                                       std::vector<BrokenProblem>* broken = nullptr);

}  // namespace judge
