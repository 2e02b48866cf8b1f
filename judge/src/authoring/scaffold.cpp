// Templates for a new problem package.
#include "authoring/scaffold.hpp"

#include <fmt/format.h>
#include <filesystem>
#include <fstream>
#include <regex>

#include "judging/problem_catalog.hpp"
#include "package/layout.hpp"
#include "util/errors.hpp"

namespace judge {
namespace fs = std::filesystem;
namespace {
// {0} is the slug everywhere; braces for fmt are doubled.
constexpr const char* kProblemYaml = R"(title: "TODO: a title for {0}"
order: {1}
statement: |
  TODO: the statement, in teaching prose: why this matters in decoding,
  the exact semantics (ties, -inf, invalid arguments), a worked example,
  the pitfalls, how the judge checks it, and interview questions.
signature: |
  std::vector<double> {0}(const std::vector<double>& logits);
ops:
  {0}:
    inputs: {{logits: doubles}}
    output: doubles
limits: {{time_ms: 2000, memory_mb: 256}}
tolerance: {{atol: 1.0e-9, rtol: 1.0e-6}}
samples:
  - name: example
    note: TODO replace with the statement's worked example
    input: {{logits: [2.0, 1.0, 0.1]}}
    expect: [2.0, 1.0, 0.1]
)";

constexpr const char* kHiddenCases = R"(# Hidden cases for {0}: one per edge of the contract, each with a note.
cases:
  - name: single_logit
    note: TODO replace with the edges of your contract
    input: {{logits: [0.5]}}
)";

constexpr const char* kStub = R"(// {0}: TODO say in one paragraph what to implement.
#pragma once

#include <stdexcept>
#include <vector>

inline std::vector<double> {0}(const std::vector<double>& logits) {{
  throw std::logic_error("not implemented yet");
}}
)";

constexpr const char* kReference = R"(// Reference solution for {0}.
#pragma once

#include <vector>

// TODO: the real reference; this placeholder returns its input.
inline std::vector<double> {0}(const std::vector<double>& logits) {{ return logits; }}
)";

constexpr const char* kWrong = R"(// A known mistake for {0}. TODO: one file per pitfall of the statement.
#pragma once

#include <vector>

inline std::vector<double> {0}(const std::vector<double>& logits) {{ return {{}}; }}
)";

constexpr const char* kSolutionsYaml = R"(reference: reference.hpp
accepted: []
wrong:
  - file: wrong/returns_empty.hpp
    verdict: wrong_answer
    mistake: "TODO: the mistake in teaching words, as a learner who made it should read it"
)";

constexpr const char* kAdapter = R"(// Adapter for the {0} problem.
#include <judge_harness/runner.hpp>

#include <vector>

#include JUDGE_LEARNER_BINDINGS  // {0}.learner.hpp: the learner's functions, compiled apart

namespace {{
judge_harness::Value call_op(const judge_harness::Value& args) {{
  return judge_harness::Value::doubles(judge_learner::{0}(judge_harness::arg_doubles(args, "logits")));
}}

[[maybe_unused]] const bool registered = judge_harness::register_operation("{0}", call_op);
}}  // namespace
)";

constexpr const char* kLearnerBindings = R"(// The functions of a {0} solution that the adapter ({0}.cpp) calls.
#pragma once
#include <judge_harness/learner.hpp>

#include <vector>

#ifdef JUDGE_SOLUTION
#include JUDGE_SOLUTION
#endif

// The exact signature from problem.yaml: a mismatch is a compile error.
JUDGE_LEARNER_FUNCTION({0}, std::vector<double>(const std::vector<double>& logits));
)";

void write_new_file(const fs::path& path, const std::string& content, std::vector<std::string>* created) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path);
  out << content;
  if (!out) throw JudgeFault{fmt::format("cannot write {}", path.string())};
  created->push_back(path.string());
}
}  // namespace

std::vector<std::string> scaffold_problem(const Paths& paths, const std::string& slug) {
  static const std::regex kSlug("[a-z][a-z0-9_]*");
  if (!std::regex_match(slug, kSlug))
    throw JudgeFault{
        fmt::format("new: '{}' is not a slug: use lowercase letters, digits and '_', starting with a letter", slug)};
  const Package package = package_of(paths, slug);
  for (const std::string& taken :
       {package.problem_dir, package.solutions_dir, package.adapter, package.learner_bindings})
    if (fs::exists(taken)) throw JudgeFault{fmt::format("new: {} already exists", taken)};
  int order = 1;
  if (fs::is_directory(paths.problems_dir))
    for (const Problem& problem : ProblemCatalog(paths).load_all()) order = std::max(order, problem.order + 1);

  std::vector<std::string> created;
  write_new_file(package.spec_file, fmt::format(kProblemYaml, slug, order), &created);
  write_new_file(package.stub, fmt::format(kStub, slug), &created);
  write_new_file(fs::path(package.hidden_dir) / "cases.yaml", fmt::format(kHiddenCases, slug), &created);
  write_new_file(package.reference, fmt::format(kReference, slug), &created);
  write_new_file(package.solutions_index, kSolutionsYaml, &created);
  write_new_file(fs::path(package.solutions_dir) / "wrong" / "returns_empty.hpp", fmt::format(kWrong, slug), &created);
  write_new_file(package.adapter, fmt::format(kAdapter, slug), &created);
  write_new_file(package.learner_bindings, fmt::format(kLearnerBindings, slug), &created);
  return created;
}

}  // namespace judge
