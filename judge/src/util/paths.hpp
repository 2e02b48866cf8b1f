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
  std::string cache_dir;  // compiled runners
  // The installation's default cache. A cache of its own (JUDGE_CACHE_DIR)
  // takes the precompiled preludes and adapter objects that one already
  // built from the same harness and compiler, instead of compiling them
  // again (compile/inputs.hpp). JUDGE_DEFAULT_CACHE_DIR names another.
  std::string default_cache_dir;
  std::string workspace_dir;  // the learner's files

  // The layout of the judge's own installation (found from its binary:
  // util/installation.hpp), overridable by environment variables:
  // JUDGE_ROOT (a course's own problems, solutions and harness),
  // JUDGE_CACHE_DIR, JUDGE_WORKSPACE. Throws JudgeFault when no problems
  // are found and JUDGE_ROOT is unset.
  static Paths discover();
  // The same layout under another root (tests, instructors' copies); the
  // harness library and the cache are still the installation's.
  static Paths under_root(const std::string& root);
};

}  // namespace judge
