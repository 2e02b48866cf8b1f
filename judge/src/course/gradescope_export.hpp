// `judge export gradescope PROBLEM... --out autograder.zip`: a Gradescope
// autograder. The archive holds
//   setup.sh        run once by Gradescope when it builds the image (Ubuntu,
//                   as root): installs the Debian/Ubuntu packages the judge
//                   needs, builds it from judge/, and judges each reference
//                   once (which proves the build and fills the cache)
//   run_autograder  run per submission: finds PROBLEM.hpp in
//                   /autograder/submission for each problem, judges them all
//                   in one `judge run --format gradescope`, and writes
//                   /autograder/results/results.json (JUDGE_AUTOGRADER_ROOT
//                   replaces /autograder, to try it elsewhere)
//   judge/          the judge's source (CMakeLists.txt, judge/, harness/)
//                   and the chosen problems' packages
#pragma once

#include <string>
#include <vector>

#include "util/paths.hpp"

namespace judge {

struct GradescopeExport {
  std::vector<std::string> slugs;
  std::string out = "autograder.zip";
  std::string hidden_visibility;  // of hidden cases; empty: the reporter's default
};

// Writes the archive; returns what it holds, a line per part. Throws
// JudgeFault (an unknown problem, no judge source beside the binary, an
// unwritable archive) or SpecError (a malformed problem).
std::vector<std::string> export_gradescope(const Paths& paths, const GradescopeExport& options);

}  // namespace judge
