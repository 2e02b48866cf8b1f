// `judge show PROBLEM`: the statement, signature and sample cases.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "check/compare.hpp"
#include "cli/command.hpp"
#include "judging/problem_catalog.hpp"
#include "package/layout.hpp"

namespace judge {
namespace {
void print_case(const TestCase& test, const Operation& op) {
  fmt::print("  {}:\n", test.name);
  for (const auto& [name, type] : op.inputs)
    if (test.input.contains(name)) fmt::print("    {} = {}\n", name, brief(test.input[name], 12));
  if (test.expects_invalid_argument)
    fmt::print("    throws std::invalid_argument\n");
  else if (test.expect)
    fmt::print("    expect {}\n", brief(*test.expect, 12));
  else if (test.check != "values")
    fmt::print("    judged by: {}\n", test.check);
  if (!test.note.empty()) fmt::print("    ({})\n", test.note);
}

// The time limits as the cases apply them: the problem's, and the range
// of those cases that set their own.
std::string time_limits(const Problem& problem) {
  std::vector<const TestCase*> own;
  for (const TestCase* test : problem.cases())
    if (test->time_ms != problem.time_ms) own.push_back(test);
  std::string text =
      fmt::format("{} ms per request (one call, or a sampler's batch of up to 10,000 seeded draws)", problem.time_ms);
  if (own.empty()) return text;
  auto [low, high] = std::minmax_element(own.begin(), own.end(),
                                         [](const TestCase* a, const TestCase* b) { return a->time_ms < b->time_ms; });
  std::string range = (*low)->time_ms == (*high)->time_ms
                          ? fmt::format("{} ms", (*low)->time_ms)
                          : fmt::format("{} to {} ms", (*low)->time_ms, (*high)->time_ms);
  std::vector<std::string> names;
  for (std::size_t i = 0; i < own.size() && i < 3; ++i) names.push_back(own[i]->name);
  std::string more = own.size() > names.size() ? fmt::format(" and {} more", own.size() - names.size()) : "";
  return fmt::format("{}; {} case{} set{} {} ({}{})", text, own.size(), own.size() == 1 ? "" : "s",
                     own.size() == 1 ? "s" : "", range, fmt::join(names, ", "), more);
}

class ShowCommand : public Command {
 public:
  void define(CLI::App& command) override {
    command.add_option("PROBLEM", slug_, "problem slug, e.g. top_p")->required();
  }

  int run(const CommandContext& context) override {
    Problem problem = ProblemCatalog(context.paths).load(slug_);
    fmt::print("{}  ({})\n\n{}\n", problem.title, problem.slug, problem.statement);
    fmt::print("\nSignature:\n\n{}\n", problem.signature);
    fmt::print("\nTime: {}.\nMemory: {} MiB. Tolerance: atol {} or rtol {} per value.\n", time_limits(problem),
               problem.memory_mb, format_number(problem.tolerance.atol), format_number(problem.tolerance.rtol));
    fmt::print("\nSample cases:\n");
    for (const TestCase& test : problem.samples) print_case(test, *problem.find_op(test.op));
    fmt::print("\n{} hidden cases. Start with: judge start {}\n", problem.hidden.size(), problem.slug);
    return 0;
  }

 private:
  std::string slug_;
};
}  // namespace

std::unique_ptr<Command> make_show_command() { return std::make_unique<ShowCommand>(); }

}  // namespace judge
