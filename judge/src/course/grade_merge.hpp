// `judge grade --merge REPORT_DIR... --out DIR`: the reports of shard runs
// (`judge grade PROBLEM DIR --shard K/N`, one per machine) made into the
// report one run over the whole folder would have written: DIR/results/
// holds every submission's result file, DIR/summary.csv and summary.json
// every row, sorted by submission. The shards must be of one problem, each
// share once, with no submission twice and none missing; and each file
// read must carry this judge's seal (grade_seal.hpp): a summary or result
// file edited or planted in a shard's report is refused, not merged.
#pragma once

#include <string>
#include <vector>

#include "util/paths.hpp"

namespace judge {

struct GradeMergeOptions {
  std::vector<std::string> report_dirs;
  std::string out;
};

// Merges, with the grade key of `paths`' cache (or JUDGE_GRADE_KEY_FILE);
// returns 0, or 2 when some row has verdict "error" (as grade does).
// Throws JudgeFault, before writing anything, when the reports do not
// make one whole folder's report (naming what is missing or doubled) or a
// file in them does not carry this judge's seal (naming it and why).
int merge_grade_reports(const Paths& paths, const GradeMergeOptions& options);

}  // namespace judge
