// Where the judge finds problems, solutions, the harness and its caches.
#pragma once

#include <string>

namespace judge {

struct Paths {
  std::string root;  // holds problems/, solutions/, harness/
  std::string problems_dir;
  std::string solutions_dir;
  std::string harness_include;  // harness/include
  std::string adapters_dir;     // harness/problems
  std::string harness_library;  // the prebuilt libjudge_harness.a
  std::string eigen_include;
  std::string cache_dir;      // compiled runners
  std::string workspace_dir;  // the learner's files

  // The installed layout, overridable by environment variables:
  // JUDGE_ROOT (a copy of the repository's problem data), JUDGE_CACHE_DIR,
  // JUDGE_WORKSPACE.
  static Paths discover();
  // The same layout under another root (tests, instructors' copies).
  static Paths under_root(const std::string& root);
};

}  // namespace judge
