// MistakeResults: one CBOR file per known mistake and problem under
// <cache>/results (counted and cleared with the result cache). CBOR, not
// JSON text: returned values may hold NaN and infinities.
#include "judging/mistake_results.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "util/errors.hpp"
#include "util/files.hpp"
#include "util/fingerprint.hpp"

namespace judge {
namespace fs = std::filesystem;
using nlohmann::json;

std::string mistake_problem_key(const Problem& problem) {
  Fingerprint key;
  key.add("mistake-results-v1");
  key.add_tree(problem.package.problem_dir);  // the spec and every case file
  key.add_file_stamp("/proc/self/exe");       // a rebuilt judge may judge differently
  key.add(fs::read_symlink("/proc/self/exe").string());
  return key.hex();
}

MistakeResults::MistakeResults(const Paths& paths, const std::string& problem_key, const std::string& mistake_binary,
                               const std::string& reference_binary) {
  Fingerprint key;
  key.add(problem_key);
  key.add(mistake_binary);  // both named by the hash of everything compiled into them
  key.add(reference_binary);
  file_ = (fs::path(paths.cache_dir) / "results" / ("mistake-" + key.hex() + ".cbor")).string();
  std::optional<std::string> stored = read_file(file_);
  if (!stored) return;
  try {
    json data = json::from_cbor(*stored);
    for (const auto& [name, entry] : data.items()) {
      std::optional<Verdict> verdict = verdict_from_name(entry.at("verdict").get<std::string>());
      if (!verdict) continue;
      TestResult result;
      result.name = name;
      result.verdict = *verdict;
      result.failure_kind = entry.at("failure_kind").get<std::string>();
      result.returned = entry.at("returned");
      results_.emplace(name, std::move(result));
    }
  } catch (const json::exception&) {
    results_.clear();  // unreadable or from another version: run them again
  }
}

std::optional<TestResult> MistakeResults::find(const std::string& name) const {
  auto found = results_.find(name);
  if (found == results_.end()) return std::nullopt;
  return found->second;
}

void MistakeResults::remember(const std::string& name, const TestResult& result) {
  if (result.verdict == Verdict::kTimeLimitExceeded || result.verdict == Verdict::kMemoryLimitExceeded) return;
  if (json::to_cbor(result.returned).size() > kMaxStoredBytes) return;
  results_[name] = result;
  changed_ = true;
}

void MistakeResults::save() const {
  if (!changed_) return;
  json data = json::object();
  for (const auto& [name, result] : results_)
    data[name] = {{"verdict", verdict_name(result.verdict)},
                  {"failure_kind", result.failure_kind},
                  {"returned", result.returned}};
  std::vector<std::uint8_t> bytes = json::to_cbor(data);
  std::error_code error;
  fs::create_directories(fs::path(file_).parent_path(), error);
  try {
    write_file_atomically(file_, std::string(bytes.begin(), bytes.end()));
  } catch (const JudgeFault&) {
    // Not stored: the next hint runs the mistake again.
  }
}

}  // namespace judge
