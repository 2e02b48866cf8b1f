// Verdicts of unchanged solutions, answered from disk: when the runner,
// the reference, the problem's files and the judge itself are all as they
// were, judging again would give the same result.
#pragma once

#include <optional>
#include <string>

#include "package/problem.hpp"
#include "package/verdict.hpp"
#include "util/paths.hpp"

namespace judge {

// The key for judging `learner_binary` against `problem` with
// `reference_binary` (both already keyed by content), hints on or off, the
// shrinking budget (0: off) and whether every case is judged whatever
// the time-outs (JudgeRequest::every_case).
std::string result_cache_key(const Problem& problem, const std::string& learner_binary,
                             const std::string& reference_binary, bool hints, double shrink_budget_ms, bool every_case);

// The stored result for `key`, marked used now; nullopt when there is none
// or it cannot be read.
std::optional<ProblemResult> load_cached_result(const Paths& paths, const std::string& key);

// Stores `result` unless it depends on timing (a time or memory limit
// verdict in any case), which a rerun should measure again; then removes
// the least recently used results past their share of the cache's bound
// (util/cache_bound.hpp: an eighth of JUDGE_CACHE_MAX_MB).
void store_cached_result(const Paths& paths, const std::string& key, const ProblemResult& result);

}  // namespace judge
