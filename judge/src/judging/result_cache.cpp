// The result cache: one JSON file per key under <cache>/results.
#include "judging/result_cache.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "spec/package.hpp"
#include "spec/result_codec.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"
#include "util/fingerprint.hpp"

namespace judge {
namespace fs = std::filesystem;
namespace {
std::string result_file(const Paths& paths, const std::string& key) {
  return (fs::path(paths.cache_dir) / "results" / (key + ".json")).string();
}
}  // namespace

std::string result_cache_key(const Paths& paths, const Problem& problem, const std::string& learner_binary,
                             const std::string& reference_binary, bool hints, double shrink_budget_ms) {
  Fingerprint key;
  key.add(learner_binary);  // named by the hash of everything compiled into it
  key.add(reference_binary);
  key.add_tree(problem.dir);                                               // spec, stub and every case file
  if (hints) key.add_tree(package_of(paths, problem.slug).solutions_dir);  // the known mistakes
  if (shrink_budget_ms > 0) key.add(fmt::format("shrink {}", shrink_budget_ms));
  key.add_file_stamp("/proc/self/exe");                                    // a rebuilt judge may judge differently
  key.add(fs::read_symlink("/proc/self/exe").string());
  return key.hex();
}

std::optional<ProblemResult> load_cached_result(const Paths& paths, const std::string& key) {
  std::optional<std::string> text = read_file(result_file(paths, key));
  if (!text) return std::nullopt;
  try {
    return result_from_json(nlohmann::json::parse(*text));
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
    // Not stored: the next run judges again.
  }
}

}  // namespace judge
