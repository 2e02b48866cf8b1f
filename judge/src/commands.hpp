// The judge's commands. Each returns the process exit status (cli.md):
// 0 all accepted / done, 1 some problem not accepted, 2 the judge could not
// do its job. Only these functions and main() print.
#pragma once

#include <string>
#include <vector>

#include "paths.hpp"

namespace judge {

enum class OutputFormat { kText, kJson };

int command_list(const Paths& paths, OutputFormat format);
int command_show(const Paths& paths, const std::string& slug);
int command_start(const Paths& paths, const std::string& slug);
// Which sandbox protections are active on this machine, and why any is missing.
int command_doctor(OutputFormat format);

struct RunOptions {
  std::vector<std::string> slugs;  // empty with `all`
  bool all = false;
  std::string solution_file;       // --solution
  bool reference = false;          // --reference
  OutputFormat format = OutputFormat::kText;
};
int command_run(const Paths& paths, const RunOptions& options);

}  // namespace judge
