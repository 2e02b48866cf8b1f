// The output formats of `judge run`, by name: the one table that the
// command line's choices and the reporters come from.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "report/reporter.hpp"

namespace judge {

// "text", "json", "junit", "exercism", "gradescope", in that order.
std::vector<std::string> output_format_names();

// The reporter for format `name` writing to `out` (text: with colour and a
// live line when `out` is a terminal that wants them). Throws JudgeFault
// for an unknown name.
std::unique_ptr<Reporter> make_reporter(const std::string& name, std::FILE* out);

}  // namespace judge
