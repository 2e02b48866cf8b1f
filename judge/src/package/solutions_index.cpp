// Loading solutions.yaml.
#include "package/solutions_index.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <filesystem>
#include <functional>

#include "package/yaml_reader.hpp"
#include "util/text.hpp"

namespace judge {
namespace fs = std::filesystem;

namespace {
// solutions.yaml read key by key; every error names the file, line and key.
class IndexReader {
 public:
  IndexReader(const Package& package, const YAML::Node& root)
      : dir_(package.solutions_dir),
        file_(package.solutions_index),
        index_(root, file_, "solutions index", {"reference", "accepted", "wrong", "hint_tests"}) {}

  SolutionsIndex read() {
    SolutionsIndex out;
    out.reference = existing(index_.require("reference"), "reference");
    out.accepted = read_list("accepted", "an accepted solution", {"file", "note", "slowdown"},
                             [&](const MapReader& entry, KnownSolution* solution) { read_accepted(entry, solution); });
    out.wrong = read_list("wrong", "a wrong solution", {"file", "verdict", "mistake"},
                          [&](const MapReader& entry, KnownSolution* solution) {
                            solution->verdict = read_verdict(entry);
                            solution->note = entry.string("mistake");
                          });
    out.hint_tests = read_list("hint_tests", "a hint test", {"file", "verdict", "hints", "note"},
                               [&](const MapReader& entry, KnownSolution* solution) {
                                 solution->verdict = read_verdict(entry);
                                 solution->note = entry.string_or("note", "");
                                 read_hints(entry, out.wrong, solution);
                               });
    return out;
  }

 private:
  // A path relative to the solutions folder that must name a file.
  std::string existing(const YAML::Node& node, const std::string& key) const {
    std::string relative = read_string(node, file_, key);
    fs::path path = dir_ / relative;
    if (!fs::is_regular_file(path)) fail_at(file_, node, fmt::format("key '{}': no such file '{}'", key, relative));
    return path.lexically_normal().string();
  }

  Verdict read_verdict(const MapReader& entry) const {
    std::string verdict = entry.string("verdict");
    auto parsed = verdict_from_name(verdict);
    if (!parsed || *parsed == Verdict::kAccepted)
      fail_at(file_, entry.get("verdict"),
              fmt::format("key 'verdict': expected wrong_answer, runtime_error, time_limit_exceeded, "
                          "memory_limit_exceeded or compile_error, got '{}'",
                          verdict));
    return *parsed;
  }

  void read_accepted(const MapReader& entry, KnownSolution* solution) const {
    solution->note = entry.string_or("note", "");
    if (!entry.has("slowdown")) return;
    solution->slowdown = read_number(entry.get("slowdown"), file_, "slowdown");
    if (!(solution->slowdown > 1)) fail_at(file_, entry.get("slowdown"), "key 'slowdown': expected a number above 1");
  }

  // A hint test's `hints`: files among the wrong solutions listed above.
  void read_hints(const MapReader& entry, const std::vector<KnownSolution>& wrong, KnownSolution* solution) const {
    YAML::Node hints = entry.require("hints");
    if (!hints.IsSequence()) fail_at(file_, hints, "key 'hints': expected a list of files under wrong/ (or [])");
    for (const auto& hint : hints) {
      std::string wanted = existing(hint, "hints");
      bool listed = std::any_of(wrong.begin(), wrong.end(), [&](const KnownSolution& w) { return w.file == wanted; });
      if (!listed)
        fail_at(file_, hint,
                fmt::format("key 'hints': '{}' is not one of the wrong solutions listed above",
                            read_string(hint, file_, "hints")));
      solution->hints.push_back(wanted);
    }
  }

  std::vector<KnownSolution> read_list(const char* key, const char* what, const std::vector<std::string>& allowed,
                                       const std::function<void(const MapReader&, KnownSolution*)>& read_rest) const {
    std::vector<KnownSolution> list;
    if (!index_.has(key)) return list;
    YAML::Node items = index_.get(key);
    if (!items.IsSequence()) fail_at(file_, items, fmt::format("key '{}': expected a list of solutions", key));
    for (const auto& item : items) {
      MapReader entry(item, file_, what, allowed);
      KnownSolution solution;
      solution.file = existing(entry.require("file"), "file");
      solution.display = display_path(solution.file);
      solution.place = {file_, item.Mark().line + 1, item.Mark().column + 1};
      read_rest(entry, &solution);
      list.push_back(solution);
    }
    return list;
  }

  fs::path dir_;
  std::string file_;
  MapReader index_;
};
}  // namespace

std::optional<SolutionsIndex> load_solutions_index(const Package& package) {
  if (!fs::is_regular_file(package.solutions_index)) return std::nullopt;
  return IndexReader(package, load_yaml_file(package.solutions_index)).read();
}

}  // namespace judge
