// The result cache: one JSON file per key under <cache>/results.
#include "result_cache.hpp"

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>

#include "fingerprint.hpp"
#include "solutions_index.hpp"

namespace judge {
namespace fs = std::filesystem;
namespace {
using nlohmann::json;

std::string result_file(const Paths& paths, const std::string& key) {
  return (fs::path(paths.cache_dir) / "results" / (key + ".json")).string();
}

json to_json(const TestResult& test) {
  return {{"name", test.name},       {"hidden", test.hidden},   {"verdict", verdict_name(test.verdict)},
          {"time_ms", test.time_ms}, {"message", test.message}, {"details", test.details},
          {"output", test.output},   {"failure_kind", test.failure_kind}, {"returned", test.returned},
          {"slowest_call_ms", test.slowest_call_ms}, {"hint", test.hint}};
}

TestResult from_json(const json& j) {
  TestResult test;
  test.name = j.at("name");
  test.hidden = j.at("hidden");
  test.verdict = verdict_from_name(j.at("verdict")).value();
  test.time_ms = j.at("time_ms");
  test.message = j.at("message");
  test.details = j.at("details");
  test.output = j.at("output");
  test.failure_kind = j.at("failure_kind");
  test.returned = j.at("returned");
  test.slowest_call_ms = j.at("slowest_call_ms");
  test.hint = j.at("hint");
  return test;
}
}  // namespace

std::string result_cache_key(const Paths& paths, const Problem& problem, const std::string& learner_binary,
                             const std::string& reference_binary, bool hints) {
  Fingerprint key;
  key.add(learner_binary);    // named by the hash of everything compiled into it
  key.add(reference_binary);
  key.add_tree(problem.dir);  // spec, stub and every case file
  if (hints) key.add_tree((fs::path(paths.solutions_dir) / problem.slug).string());  // the known mistakes
  key.add_file_stamp("/proc/self/exe");  // a rebuilt judge may judge differently
  key.add(fs::read_symlink("/proc/self/exe").string());
  return key.hex();
}

std::optional<ProblemResult> load_cached_result(const Paths& paths, const std::string& key) {
  std::ifstream in(result_file(paths, key));
  if (!in) return std::nullopt;
  try {
    json data = json::parse(in);
    ProblemResult result;
    result.problem = data.at("problem");
    result.verdict = verdict_from_name(data.at("verdict")).value();
    result.message = data.at("message");
    for (const json& test : data.at("tests")) result.tests.push_back(from_json(test));
    return result;
  } catch (const std::exception&) {
    return std::nullopt;  // unreadable or from another version: judge again
  }
}

void store_cached_result(const Paths& paths, const std::string& key, const ProblemResult& result) {
  for (const TestResult& test : result.tests)
    if (test.verdict == Verdict::kTimeLimitExceeded || test.verdict == Verdict::kMemoryLimitExceeded) return;
  json tests = json::array();
  for (const TestResult& test : result.tests) tests.push_back(to_json(test));
  json data = {{"problem", result.problem}, {"verdict", verdict_name(result.verdict)}, {"message", result.message},
               {"tests", tests}};
  std::string file = result_file(paths, key);
  std::error_code error;
  fs::create_directories(fs::path(file).parent_path(), error);
  static std::atomic<unsigned> stores{0};  // unique per thread too: `grade` and `run --all` judge in parallel
  std::string temporary = fmt::format("{}.tmp{}-{}", file, getpid(), stores++);
  {
    std::ofstream out(temporary);
    out << data.dump(-1, ' ', false, json::error_handler_t::replace);
  }
  fs::rename(temporary, file, error);
}

}  // namespace judge
