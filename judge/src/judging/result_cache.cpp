// The result cache: one JSON file per key under <cache>/results, the least
// recently used removed past the results' share of the cache's bound.
#include "judging/result_cache.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "package/layout.hpp"
#include "package/result_codec.hpp"
#include "util/cache_bound.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"
#include "util/fingerprint.hpp"

namespace judge {
namespace fs = std::filesystem;
namespace {
std::string result_file(const Paths& paths, const std::string& key) {
  return (fs::path(paths.cache_dir) / "results" / (key + ".json")).string();
}

// Result files are named KEY.json (temporary files of a write in progress
// are not).
bool is_result_name(const std::string& name) {
  return name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0 && !is_atomic_write_leftover(name);
}
}  // namespace

std::string result_cache_key(const Problem& problem, const std::string& learner_binary,
                             const std::string& reference_binary, bool hints, double shrink_budget_ms,
                             bool every_case) {
  Fingerprint key;
  key.add(learner_binary);  // named by the hash of everything compiled into it
  key.add(reference_binary);
  key.add_tree(problem.package.problem_dir);               // spec, stub and every case file
  if (hints) key.add_tree(problem.package.solutions_dir);  // the known mistakes
  if (shrink_budget_ms > 0) key.add(fmt::format("shrink {}", shrink_budget_ms));
  if (every_case) key.add("every case");
  key.add_file_stamp("/proc/self/exe");  // a rebuilt judge may judge differently
  key.add(fs::read_symlink("/proc/self/exe").string());
  return key.hex();
}

std::optional<ProblemResult> load_cached_result(const Paths& paths, const std::string& key) {
  const std::string file = result_file(paths, key);
  std::optional<std::string> text = read_file(file);
  if (!text) return std::nullopt;
  try {
    ProblemResult result = result_from_json(nlohmann::json::parse(*text));
    mark_used(file);  // for the eviction order
    return result;
  } catch (const std::exception&) {
    return std::nullopt;  // unreadable or from another version: judge again
  }
}

void store_cached_result(const Paths& paths, const std::string& key, const ProblemResult& result) {
  for (const TestResult& test : result.tests)
    if (test.verdict == Verdict::kTimeLimitExceeded || test.verdict == Verdict::kMemoryLimitExceeded) return;
  std::string file = result_file(paths, key);
  std::error_code error;
  fs::create_directories(fs::path(file).parent_path(), error);
  try {
    write_file_atomically(file, json_text(result_to_json(result, ResultForm::kFull)));
  } catch (const JudgeFault&) {
    return;  // not stored: the next run judges again
  }
  // Past the results' share of the cache, the least recently used go (a
  // result removed under another judge's read is only judged again).
  evict_least_recently_used(cached_files(fs::path(file).parent_path(), is_result_name), result_bound_bytes(),
                            fs::file_time_type::max());
}

}  // namespace judge
