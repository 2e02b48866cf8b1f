// Shell completion scripts for `judge completion bash|zsh`: commands,
// options, option values, and problem slugs read at completion time by
// calling `judge __slugs` (so new problems complete without reinstalling).
#pragma once

#include <string>
#include <vector>

namespace judge {

// What a value (of an option or a positional argument) completes to.
struct CompletionValue {
  enum class Kind { kNone, kProblem, kFile, kDirectory, kChoice };
  Kind kind = Kind::kNone;
  std::vector<std::string> choices;  // kChoice
};

struct CompletionOption {
  std::string name;  // "--format"
  std::string description;
  bool takes_value = false;
  CompletionValue value;
};

struct CompletionPositional {
  std::string name;  // "PROBLEM"
  std::string description;
  bool repeats = false;  // takes any number of values
  CompletionValue value;
};

struct CompletionCommand {
  std::string name;
  std::string description;
  std::vector<CompletionOption> options;
  std::vector<CompletionPositional> positionals;
};

// The script for `shell` ("bash" or "zsh"), completing `program`'s
// `commands`. Throws JudgeFault for another shell.
std::string completion_script(const std::string& shell, const std::string& program,
                              const std::vector<CompletionCommand>& commands);

}  // namespace judge
