// Loading problem.yaml and the hidden case files.
#include "package/problem.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <regex>
#include <set>

#include "package/typed_values.hpp"
#include "package/yaml_reader.hpp"
#include "util/text.hpp"

namespace judge {
namespace fs = std::filesystem;
namespace {
ValueType read_type(const YAML::Node& node, const std::string& file, const std::string& key) {
  std::string name = read_string(node, file, key);
  if (auto type = value_type_from_name(name)) return *type;
  fail_at(file, node, fmt::format("key '{}': {}", key, unknown_name_message("type", name, value_type_names())));
}

Tolerance read_tolerance(const YAML::Node& node, const std::string& file, Tolerance base) {
  MapReader reader(node, file, "tolerance", {"atol", "rtol"});
  if (reader.has("atol")) base.atol = reader.number("atol");
  if (reader.has("rtol")) base.rtol = reader.number("rtol");
  for (const char* key : {"atol", "rtol"})
    if (reader.has(key) && !(reader.number(key) >= 0))
      fail_at(file, reader.get(key), fmt::format("key '{}': expected a number >= 0", key));
  return base;
}

// A path of the op's inputs (SharedAxis): members joined by '.', a member
// followed by "[]" for every entry of that list; its first member an input.
std::string read_path(const YAML::Node& node, const std::string& file, const std::string& key, const Operation& op) {
  static const std::regex kPath("[a-z_][a-z0-9_]*(\\[\\])?(\\.[a-z_][a-z0-9_]*(\\[\\])?)*");
  std::string path = read_string(node, file, key);
  if (!std::regex_match(path, kPath))
    fail_at(file, node, fmt::format("key '{}': '{}' is not a path like model.rows[].probs", key, path));
  std::string input = path.substr(0, path.find_first_of(".["));
  bool known = std::any_of(op.inputs.begin(), op.inputs.end(), [&](const auto& entry) { return entry.first == input; });
  if (!known) fail_at(file, node, fmt::format("key '{}': op '{}' has no input '{}'", key, op.name, input));
  return path;
}

std::vector<std::string> read_paths(const MapReader& reader, const std::string& key, const std::string& file,
                                    const Operation& op) {
  std::vector<std::string> paths;
  if (!reader.has(key)) return paths;
  YAML::Node list = reader.get(key);
  if (!list.IsSequence()) fail_at(file, list, fmt::format("key '{}': expected a list of paths", key));
  for (const auto& item : list) paths.push_back(read_path(item, file, key, op));
  return paths;
}

// An entry of `shrink:` with `heads:`: heads laid out side by side.
HeadAxis read_head_axis(const YAML::Node& item, const std::string& file, const Operation& op) {
  MapReader reader(item, file, "shrink axis",
                   {"axis", "heads", "groups", "width", "per_head", "per_group", "same_as_heads"});
  HeadAxis axis;
  axis.name = reader.string("axis");
  axis.heads = read_path(reader.require("heads"), file, "heads", op);
  axis.groups = read_path(reader.require("groups"), file, "groups", op);
  axis.width = read_path(reader.require("width"), file, "width", op);
  axis.per_head = read_paths(reader, "per_head", file, op);
  axis.per_group = read_paths(reader, "per_group", file, op);
  axis.same_as_heads = read_paths(reader, "same_as_heads", file, op);
  if (axis.per_head.empty())
    fail_at(file, item, fmt::format("axis '{}': key 'per_head' needs at least one path", axis.name));
  return axis;
}

// `shrink:` under an op: a list of shared axes and head axes.
void read_axes(const YAML::Node& node, const std::string& file, Operation* op) {
  if (!node.IsSequence()) fail_at(file, node, "key 'shrink': expected a list of axes {axis, entries, ids, ...}");
  std::vector<SharedAxis>& axes = op->axes;
  for (const auto& item : node) {
    if (item.IsMap() && item["heads"]) {
      op->head_axes.push_back(read_head_axis(item, file, *op));
      continue;
    }
    MapReader reader(item, file, "shrink axis", {"axis", "size", "entries", "ids", "distributions"});
    SharedAxis axis;
    axis.name = reader.string("axis");
    if (reader.has("size")) axis.size = read_path(reader.get("size"), file, "size", *op);
    axis.entries = read_paths(reader, "entries", file, *op);
    if (axis.entries.empty())
      fail_at(file, item, fmt::format("axis '{}': key 'entries' needs at least one path", axis.name));
    axis.ids = read_paths(reader, "ids", file, *op);
    if (reader.has("distributions")) axis.distributions = read_bool(reader.get("distributions"), file, "distributions");
    axes.push_back(std::move(axis));
  }
}

Operation read_op(const std::string& name, const YAML::Node& node, const std::string& file) {
  Operation op;
  op.name = name;
  MapReader reader(node, file, fmt::format("op '{}'", name), {"inputs", "output", "shrink", "fixed_answer"});
  YAML::Node inputs = reader.require("inputs");
  if (!inputs.IsMap()) fail_at(file, inputs, "key 'inputs': expected a mapping of argument name to type");
  for (const auto& entry : inputs)
    op.inputs.emplace_back(entry.first.Scalar(), read_type(entry.second, file, entry.first.Scalar()));
  op.output = read_type(reader.require("output"), file, "output");
  if (reader.has("shrink")) read_axes(reader.get("shrink"), file, &op);
  if (reader.has("fixed_answer")) op.fixed_answer = read_string(reader.get("fixed_answer"), file, "fixed_answer");
  return op;
}

// The cases of one file of a problem, each checked against the rules of
// the checks they name. The file, the problem and the rules are the
// reader's, so a new case key is read in one place.
class CaseFileReader {
 public:
  CaseFileReader(const std::string& file, const Problem& problem, const CaseRules& rules, bool hidden)
      : file_(file), problem_(problem), rules_(rules), hidden_(hidden) {}

  std::vector<TestCase> read_cases(const YAML::Node& list) const {
    if (!list.IsSequence()) fail_at(file_, list, "expected a list of cases");
    std::vector<TestCase> cases;
    for (const auto& node : list) cases.push_back(read_case(node));
    return cases;
  }

 private:
  TestCase read_case(const YAML::Node& node) const {
    TestCase test;
    test.hidden = hidden_;
    test.place = {file_, node.Mark().line + 1, node.Mark().column + 1};
    MapReader reader(node, file_, "case",
                     {"name", "note", "op", "input", "then", "expect", "throws", "check", "check_args", "tolerance",
                      "time_ms", "exact_boundary"});
    read_header(reader, &test);
    const Operation& op = *problem_.find_op(test.op);
    read_input(reader, op, &test);
    read_expectation(reader, op, &test);
    if (std::optional<std::string> unsuitable = rules_.problem_with(test, op))
      fail_at(file_, node, fmt::format("case '{}': {}", test.name, *unsuitable));
    return test;
  }

  // The case's name, note, op and check.
  void read_header(const MapReader& reader, TestCase* test) const {
    static const std::regex kNamePattern("[a-z0-9_]+");
    test->name = reader.string("name");
    if (!std::regex_match(test->name, kNamePattern))
      fail_at(file_, reader.get("name"),
              fmt::format("key 'name': expected lowercase letters, digits and '_', got '{}'", test->name));
    test->note = reader.string_or("note", "");
    test->op = reader.string_or("op", problem_.ops.front().name);
    if (!problem_.find_op(test->op)) {
      std::vector<std::string> ops;
      for (const Operation& op : problem_.ops) ops.push_back(op.name);
      std::string near = nearest_name(test->op, ops);
      fail_at(file_, reader.get("op"),
              fmt::format("key 'op': case '{}' names no op of this problem{}", test->name,
                          near.empty() ? "" : fmt::format(" (did you mean '{}'?)", near)));
    }
    test->check = reader.string_or("check", "values");
    if (!rules_.knows(test->check))
      fail_at(file_, reader.get("check"),
              fmt::format("key 'check': {}", unknown_name_message("check", test->check, rules_.check_names())));
    if (reader.has("check_args")) {
      YAML::Node args = reader.get("check_args");
      if (!args.IsMap()) fail_at(file_, args, "key 'check_args': expected a mapping");
      test->check_args = read_typed_value(args, ValueType::kAny, file_, "check_args");
    }
  }

  // Inputs: exactly the op's arguments, except those the check supplies;
  // for a check that takes them, the inputs of the calls `then` lists likewise.
  void read_input(const MapReader& reader, const Operation& op, TestCase* test) const {
    std::vector<std::string> supplied = rules_.supplied_inputs(*test);
    auto is_supplied = [&](const std::string& name) {
      return std::find(supplied.begin(), supplied.end(), name) != supplied.end();
    };
    std::vector<std::string> allowed;
    for (const auto& [name, type] : op.inputs)
      if (!is_supplied(name)) allowed.push_back(name);
    auto read_input = [&](const YAML::Node& node, const std::string& what) {
      MapReader input(node, file_, what, allowed);
      nlohmann::json values = nlohmann::json::object();
      for (const auto& [name, type] : op.inputs)
        if (!is_supplied(name)) values[name] = read_typed_value(input.require(name), type, file_, name);
      return values;
    };
    test->input = read_input(reader.require("input"), fmt::format("the input of case '{}'", test->name));
    if (!reader.has("then")) return;
    YAML::Node then = reader.get("then");
    if (!rules_.takes_then(*test))
      fail_at(file_, then,
              fmt::format("key 'then': check '{}' makes one call's worth of requests; only check 'sequence' "
                          "takes more calls",
                          test->check));
    if (!then.IsSequence() || then.size() == 0) fail_at(file_, then, "key 'then': expected a list of inputs");
    for (std::size_t i = 0; i < then.size(); ++i)
      test->then.push_back(read_input(then[i], fmt::format("call {} of case '{}' (then[{}])", i + 2, test->name, i)));
  }

  // What the case expects, its tolerance, time limit and boundary mark.
  void read_expectation(const MapReader& reader, const Operation& op, TestCase* test) const {
    if (reader.has("throws")) {
      std::string thrown = reader.string("throws");
      if (thrown != "invalid_argument")
        fail_at(file_, reader.get("throws"), fmt::format("key 'throws': expected invalid_argument, got '{}'", thrown));
      if (reader.has("expect"))
        fail_at(file_, reader.get("expect"), fmt::format("case '{}' has both 'expect' and 'throws'", test->name));
      test->expects_invalid_argument = true;
    }
    if (reader.has("expect")) test->expect = read_typed_value(reader.get("expect"), op.output, file_, "expect");
    test->tolerance = problem_.tolerance;
    if (reader.has("tolerance")) test->tolerance = read_tolerance(reader.get("tolerance"), file_, problem_.tolerance);
    test->time_ms = problem_.time_ms;
    if (reader.has("time_ms")) {
      std::int64_t ms = reader.integer("time_ms");
      if (ms < 1 || ms > 600000) fail_at(file_, reader.get("time_ms"), "key 'time_ms': expected 1 to 600000");
      test->time_ms = static_cast<int>(ms);
    }
    if (reader.has("exact_boundary"))
      test->exact_boundary = read_bool(reader.get("exact_boundary"), file_, "exact_boundary");
  }

  const std::string& file_;
  const Problem& problem_;
  const CaseRules& rules_;
  bool hidden_;
};

// Title, order, statement, signature, ops, limits and tolerance.
void read_problem_header(const MapReader& spec, const std::string& file, Problem* problem) {
  problem->title = spec.string("title");
  problem->order = static_cast<int>(spec.integer("order"));
  problem->statement = spec.string("statement");
  problem->signature = spec.string("signature");
  YAML::Node ops = spec.require("ops");
  if (!ops.IsMap() || ops.size() == 0)
    fail_at(file, ops, "key 'ops': expected a mapping of op name to {inputs, output}");
  for (const auto& entry : ops) problem->ops.push_back(read_op(entry.first.Scalar(), entry.second, file));
  for (const auto& entry : ops) {
    const Operation& op = *problem->find_op(entry.first.Scalar());
    if (op.fixed_answer.empty()) continue;
    const YAML::Node where = entry.second["fixed_answer"];
    const Operation* answer = problem->find_op(op.fixed_answer);
    if (!answer || answer == &op)
      fail_at(file, where, fmt::format("key 'fixed_answer': '{}' names no other op of this problem", op.fixed_answer));
    for (const auto& taken : answer->inputs)
      if (std::none_of(op.inputs.begin(), op.inputs.end(), [&](const auto& mine) { return mine.first == taken.first; }))
        fail_at(file, where,
                fmt::format("key 'fixed_answer': op '{}' takes input '{}', which op '{}' has not", op.fixed_answer,
                            taken.first, op.name));
  }
  MapReader limits(spec.require("limits"), file, "limits", {"time_ms", "memory_mb"});
  problem->time_ms = static_cast<int>(limits.integer("time_ms"));
  problem->memory_mb = static_cast<int>(limits.integer("memory_mb"));
  if (problem->time_ms < 1 || problem->time_ms > 600000)
    fail_at(file, limits.get("time_ms"), "key 'time_ms': expected 1 to 600000");
  if (problem->memory_mb < 16 || problem->memory_mb > 65536)
    fail_at(file, limits.get("memory_mb"), "key 'memory_mb': expected 16 to 65536");
  problem->tolerance = read_tolerance(spec.require("tolerance"), file, Tolerance{});
}

MarginRule read_margin(const YAML::Node& node, const std::string& file, const Problem& problem) {
  MapReader margin(node, file, "margin", {"op", "min", "applies_to"});
  MarginRule rule;
  rule.op = margin.string("op");
  if (!problem.find_op(rule.op))
    fail_at(file, margin.get("op"), fmt::format("key 'op': '{}' names no op of this problem", rule.op));
  const Operation& measure = *problem.find_op(rule.op);
  if (measure.output != ValueType::kNumber)
    fail_at(file, margin.get("op"),
            fmt::format("key 'op': margin op '{}' must output number (a distance, or .inf for no boundary)", rule.op));
  rule.min = margin.number("min");
  if (!(rule.min > 0) || std::isinf(rule.min))
    fail_at(file, margin.get("min"), "key 'min': expected a finite number > 0 (an absolute distance)");
  YAML::Node ops = margin.require("applies_to");
  if (!ops.IsSequence()) fail_at(file, ops, "key 'applies_to': expected a list of op names");
  for (const auto& item : ops) {
    std::string name = read_string(item, file, "applies_to");
    const Operation* measured = problem.find_op(name);
    if (!measured) fail_at(file, item, fmt::format("key 'applies_to': '{}' names no op of this problem", name));
    for (const auto& taken : measure.inputs) {
      const std::string& input = taken.first;
      bool has = std::any_of(measured->inputs.begin(), measured->inputs.end(),
                             [&](const auto& other) { return other.first == input; });
      if (!has)
        fail_at(file, item,
                fmt::format("key 'applies_to': op '{}' has no input '{}', which margin op '{}' takes", name, input,
                            rule.op));
    }
    rule.applies_to.push_back(name);
  }
  return rule;
}

// The hidden case files: those `hidden:` lists, else hidden/*.yaml by name.
std::vector<std::string> hidden_case_files(const MapReader& spec, const std::string& file,
                                           const std::string& problem_dir) {
  std::vector<std::string> files;
  if (spec.has("hidden")) {
    YAML::Node list = spec.get("hidden");
    if (!list.IsSequence()) fail_at(file, list, "key 'hidden': expected a list of case files");
    for (const auto& item : list) {
      std::string path = (fs::path(problem_dir) / read_string(item, file, "hidden")).string();
      if (!fs::is_regular_file(path))
        fail_at(file, item, fmt::format("key 'hidden': no such file '{}'", item.Scalar()));
      files.push_back(path);
    }
  } else if (fs::is_directory(fs::path(problem_dir) / "hidden")) {
    for (const auto& entry : fs::directory_iterator(fs::path(problem_dir) / "hidden"))
      if (entry.path().extension() == ".yaml") files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
  }
  return files;
}
}  // namespace

const Operation* Problem::find_op(const std::string& name) const {
  for (const Operation& op : ops)
    if (op.name == name) return &op;
  return nullptr;
}

std::vector<const TestCase*> Problem::cases() const {
  std::vector<const TestCase*> out;
  for (const TestCase& test : samples) out.push_back(&test);
  for (const TestCase& test : hidden) out.push_back(&test);
  return out;
}

TestCase with_inputs_expanded(const TestCase& test) {
  TestCase expanded = test;
  expanded.input = materialize_input(test.input);
  for (nlohmann::json& call : expanded.then) call = materialize_input(call);
  return expanded;
}

Problem load_problem(const Package& package, const CaseRules& rules) {
  Problem problem;
  problem.package = package;
  problem.slug = package.slug;
  const std::string& problem_dir = package.problem_dir;
  const std::string& file = package.spec_file;
  YAML::Node root = load_yaml_file(file);
  MapReader spec(
      root, file, "problem",
      {"title", "order", "statement", "signature", "ops", "limits", "tolerance", "margin", "samples", "hidden"});
  read_problem_header(spec, file, &problem);
  if (spec.has("margin")) problem.margin = read_margin(spec.get("margin"), file, problem);
  problem.samples = CaseFileReader(file, problem, rules, /*hidden=*/false).read_cases(spec.require("samples"));
  for (const std::string& path : hidden_case_files(spec, file, problem_dir)) {
    YAML::Node doc = load_yaml_file(path);
    MapReader cases_file(doc, path, "case file", {"cases"});
    std::vector<TestCase> cases =
        CaseFileReader(path, problem, rules, /*hidden=*/true).read_cases(cases_file.require("cases"));
    problem.hidden.insert(problem.hidden.end(), cases.begin(), cases.end());
  }
  std::set<std::string> names;
  for (const TestCase* test : problem.cases())
    if (!names.insert(test->name).second)
      throw SpecError{fmt::format("{}:{}:{}: duplicate case name '{}'", display_path(test->place.file),
                                  test->place.line, test->place.column, test->name)};
  return problem;
}

Problem load_problem_by_slug(const Paths& paths, const std::string& slug, const CaseRules& rules) {
  if (!is_problem(paths, slug))
    throw JudgeFault{fmt::format("unknown problem '{}'; the problems are: {}", slug,
                                 fmt::join(problem_slugs(paths.problems_dir), ", "))};
  return load_problem(package_of(paths, slug), rules);
}

std::vector<Problem> load_all_problems(const Paths& paths, const CaseRules& rules, std::vector<BrokenProblem>* broken) {
  const std::string& problems_dir = paths.problems_dir;
  std::vector<Problem> problems;
  if (!fs::is_directory(problems_dir))
    throw SpecError{fmt::format("{}: no such directory", display_path(problems_dir))};
  for (const auto& entry : fs::directory_iterator(problems_dir)) {
    if (!fs::is_regular_file(entry.path() / "problem.yaml")) continue;
    try {
      problems.push_back(load_problem(package_of(paths, entry.path().filename().string()), rules));
    } catch (const SpecError& error) {
      if (!broken) throw;
      broken->push_back({entry.path().filename().string(), error.message});
    }
  }
  if (broken)
    std::sort(broken->begin(), broken->end(),
              [](const BrokenProblem& a, const BrokenProblem& b) { return a.slug < b.slug; });
  std::sort(problems.begin(), problems.end(),
            [](const Problem& a, const Problem& b) { return std::tie(a.order, a.slug) < std::tie(b.order, b.slug); });
  return problems;
}

}  // namespace judge
