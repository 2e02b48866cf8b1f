// Each command's examples, which end its --help: the commands as a
// learner or an instructor types them, with what each does.
#include <fmt/format.h>

#include <algorithm>

#include <string>
#include <utility>
#include <vector>

#include "cli/command.hpp"

namespace judge {
namespace {
using Example = std::pair<const char*, const char*>;  // the command line, what it does

struct CommandExamples {
  const char* command;
  std::vector<Example> examples;
};

const std::vector<CommandExamples>& all_examples() {
  static const std::vector<CommandExamples> table = {
      {"list",
       {{"judge list", "problems in course order, your status and best result"},
        {"judge list --format json", "the same as one JSON object (docs/schemas/list.json)"}}},
      {"show", {{"judge show top_p", "statement, signature, limits and sample cases"}}},
      {"start", {{"judge start top_p", "copy the stub to workspace/top_p.hpp, then edit that file"}}},
      {"history",
       {{"judge history top_p", "every judged attempt: when, verdict, cases passed"},
        {"judge history top_p --format json", "the same as JSON"}}},
      {"solution",
       {{"judge solution top_p", "the reference explained, once you have solved top_p"},
        {"judge solution top_p --force", "before solving it (spoils the problem)"}}},
      {"doctor",
       {{"judge doctor", "which sandbox protections are active, and why any is missing"},
        {"judge doctor --format json", "the same as JSON"}}},
      {"cache", {{"judge cache", "what the cache of runners and results holds"}, {"judge cache clear", "empty it"}}},
      {"validate",
       {{"judge validate greedy", "check a problem package you are writing"},
        {"judge validate --all", "every problem (as CI does)"}}},
      {"new", {{"judge new greedy", "scaffold problems/greedy, solutions/greedy and its adapter"}}},
      {"run",
       {{"judge run top_p", "judge workspace/top_p.hpp"},
        {"judge run top_p --solution mine.hpp --format json", "judge another file; JSON on stdout"},
        {"judge run --all", "every problem you have started"}}},
      {"try",
       {{"judge try top_p", "the ops you can try, with a sample input each"},
        {"judge try top_p --input '{logits: [2, 1, 0.1], p: 0.8}'", "yours beside the reference's"}}},
      {"lab",
       {{"judge lab --prompt \"the kernel\"", "200 characters with your solved parts, the reference beside"},
        {"judge lab --mine top_p=my_top_p.hpp --top-p 0.5", "plug in a file of yours"},
        {"judge lab --draft-tokens 4", "speculative decoding with the draft model"}}},
      {"grade",
       {{"judge grade top_p submissions/", "judge every solution file in submissions/"},
        {"judge grade top_p submissions/ --jobs 8 --out grades/", "8 at once, reports in grades/"},
        {"judge grade top_p submissions/ --shard 2/4 --out shard-2/", "the second of four shares"},
        {"judge grade --merge shard-1/ shard-2/ shard-3/ shard-4/ --out grades/", "one report from four"}}},
      {"export", {{"judge export gradescope top_p --out autograder.zip", "a Gradescope autograder for top_p"}}},
      {"serve",
       {{"judge serve", "the practice page in your browser"},
        {"judge serve --port 8500 --no-open", "on a port of your choice; print the URL only"}}},
      {"watch", {{"judge watch top_p", "judge workspace/top_p.hpp again on every save"}}},
      {"completion",
       {{"source <(judge completion bash)", "complete commands, options and problems in bash"},
        {"judge completion zsh > \"${fpath[1]}/_judge\"", "install it for zsh"}}},
  };
  return table;
}
}  // namespace

std::string command_examples(const std::string& command) {
  for (const CommandExamples& entry : all_examples()) {
    if (command != entry.command) continue;
    std::size_t width = 0;
    for (const auto& [line, what] : entry.examples) width = std::max(width, std::string(line).size());
    std::string text = "\nExamples:\n";
    for (const auto& [line, what] : entry.examples)
      text +=
          width <= 40 ? fmt::format("  {:<{}}  {}\n", line, width, what) : fmt::format("  {}\n      {}\n", line, what);
    return text;
  }
  return "";
}

}  // namespace judge
