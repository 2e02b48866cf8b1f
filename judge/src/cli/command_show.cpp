// `judge show PROBLEM`: the statement, signature and sample cases.
#include <fmt/format.h>

#include "check/compare.hpp"
#include "check/registry.hpp"
#include "cli/command.hpp"
#include "spec/package.hpp"

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

class ShowCommand : public Command {
 public:
  void define(CLI::App& command) override {
    command.add_option("PROBLEM", slug_, "problem slug, e.g. top_p")->required();
  }

  int run(const CommandContext& context) override {
    Problem problem = load_problem_by_slug(context.paths, slug_, checker_case_rules());
    fmt::print("{}  ({})\n\n{}\n", problem.title, problem.slug, problem.statement);
    fmt::print("\nSignature:\n\n{}\n", problem.signature);
    fmt::print("\nLimits: {} ms per case, {} MiB of memory. Tolerance: atol {} or rtol {} per value.\n",
               problem.time_ms, problem.memory_mb, format_number(problem.tolerance.atol),
               format_number(problem.tolerance.rtol));
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
