// judge new: the files of a fresh problem package, complete enough to build
// and judge at once, with TODO markers where the instructor's work goes.
#pragma once

#include <string>
#include <vector>

#include "util/paths.hpp"

namespace judge {

// Creates the package for `slug` (lowercase letters, digits, '_'; starting
// with a letter; not taken) and returns the files created. Throws
// JudgeFault for a bad or taken slug, or a file that cannot be written.
std::vector<std::string> scaffold_problem(const Paths& paths, const std::string& slug);

}  // namespace judge
