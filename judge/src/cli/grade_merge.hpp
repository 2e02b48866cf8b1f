// `judge grade --merge REPORT_DIR... --out DIR`: the reports of shard runs
// (`judge grade PROBLEM DIR --shard K/N`, one per machine) made into the
// report one run over the whole folder would have written: DIR/results/
// holds every submission's result file, DIR/summary.csv and summary.json
// every row, sorted by submission. The shards must be of one problem, each
// share once, with no submission twice and none missing.
#pragma once

#include <string>
#include <vector>

namespace judge {

struct GradeMergeOptions {
  std::vector<std::string> report_dirs;
  std::string out;
};

// Merges; returns 0, or 2 when some row has verdict "error" (as grade
// does). Throws JudgeFault when the reports do not make one whole folder's
// report, naming what is missing or doubled.
int merge_grade_reports(const GradeMergeOptions& options);

}  // namespace judge
