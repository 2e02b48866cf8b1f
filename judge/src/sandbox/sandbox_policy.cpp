// Hiding the judge's files, and refusing other people's code where the
// sandbox is not whole.
#include "sandbox/sandbox_policy.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "sandbox/hidden_paths.hpp"
#include "sandbox/untrusted_code.hpp"
#include "util/errors.hpp"
#include "util/installation.hpp"

namespace judge {

void hide_judge_files(const Paths& paths) {
  for (const std::string* path : {&paths.root, &paths.problems_dir, &paths.solutions_dir, &paths.cache_dir,
                                  &paths.default_cache_dir, &paths.workspace_dir, &this_installation().root})
    hide_from_sandboxes(*path);
}

bool owned_by_someone_else(const std::string& file) {
  struct stat info {};
  return stat(file.c_str(), &info) == 0 && info.st_uid != geteuid();
}

std::string check_sandbox_for(const std::string& command, bool others_code, bool trusted) {
  return check_sandbox_for(command, others_code, trusted, gaps_for_untrusted_code());
}

std::string check_sandbox_for(const std::string& command, bool others_code, bool trusted,
                              const std::vector<SandboxGap>& gaps) {
  if (gaps.empty()) return "";
  std::string missing = describe_gaps(gaps);
  if (!others_code) return "your code ran without the whole sandbox: " + missing;
  if (!trusted)
    throw JudgeFault{fmt::format(
        "{}: refusing to judge other people's code here: {}. `judge doctor` says how to get what is missing; "
        "--trust-submissions judges anyway, giving that up",
        command, missing)};
  return "judged with --trust-submissions, without the whole sandbox: " + missing;
}

}  // namespace judge
