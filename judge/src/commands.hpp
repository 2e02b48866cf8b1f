// The judge's commands. Each returns the process exit status (cli.md):
// 0 all accepted / done, 1 some problem not accepted, 2 the judge could not
// do its job. Only these functions and main() print.
#pragma once

#include <string>
#include <vector>

#include "paths.hpp"

namespace judge {

enum class OutputFormat { kText, kJson, kJunit, kExercism, kGradescope };
// "text", "json", "junit", "exercism", "gradescope"; kText for anything else.
OutputFormat output_format_from_name(const std::string& name);

int command_list(const Paths& paths, OutputFormat format);
int command_show(const Paths& paths, const std::string& slug);
int command_start(const Paths& paths, const std::string& slug);
// Which sandbox protections are active on this machine, and why any is missing.
int command_doctor(OutputFormat format);

// Validates each problem (all when `slugs` is empty); 0 when every check
// holds, 1 otherwise, a line per check.
int command_validate(const Paths& paths, const std::vector<std::string>& slugs);

// Scaffolds a new problem package that builds at once; `validate` then says
// what to fill in.
int command_new(const Paths& paths, const std::string& slug);

struct RunOptions {
  std::vector<std::string> slugs;  // empty with `all`
  bool all = false;
  std::string solution_file;       // --solution
  bool reference = false;          // --reference
  bool no_cache = false;           // --no-cache: judge even an unchanged solution again
  bool sanitize = false;           // --sanitize: ASan + UBSan build of the learner's runner
  unsigned jobs = 0;               // --jobs: cases (problems, with several) judged at once; 0: one per core
  OutputFormat format = OutputFormat::kText;
};
int command_run(const Paths& paths, const RunOptions& options);

}  // namespace judge
