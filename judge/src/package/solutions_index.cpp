// Loading solutions.yaml.
#include "package/solutions_index.hpp"

#include <fmt/format.h>
#include <filesystem>
#include <functional>

#include "package/yaml_reader.hpp"
#include "util/text.hpp"

namespace judge {
namespace fs = std::filesystem;

std::optional<SolutionsIndex> load_solutions_index(const Package& package) {
  fs::path dir = package.solutions_dir;
  const std::string& file = package.solutions_index;
  if (!fs::is_regular_file(file)) return std::nullopt;
  YAML::Node root = load_yaml_file(file);
  MapReader index(root, file, "solutions index", {"reference", "accepted", "wrong", "hint_tests"});
  SolutionsIndex out;
  auto existing = [&](const YAML::Node& node, const std::string& key) {
    std::string relative = read_string(node, file, key);
    fs::path path = dir / relative;
    if (!fs::is_regular_file(path)) fail_at(file, node, fmt::format("key '{}': no such file '{}'", key, relative));
    return path.lexically_normal().string();
  };
  out.reference = existing(index.require("reference"), "reference");
  auto read_verdict = [&](const MapReader& entry) {
    std::string verdict = entry.string("verdict");
    auto parsed = verdict_from_name(verdict);
    if (!parsed || *parsed == Verdict::kAccepted)
      fail_at(file, entry.get("verdict"),
              fmt::format("key 'verdict': expected wrong_answer, runtime_error, time_limit_exceeded, "
                          "memory_limit_exceeded or compile_error, got '{}'",
                          verdict));
    return *parsed;
  };
  auto read_list = [&](const char* key, const char* what, const std::vector<std::string>& allowed,
                       const std::function<void(const MapReader&, KnownSolution*)>& read_rest) {
    std::vector<KnownSolution> list;
    if (!index.has(key)) return list;
    YAML::Node items = index.get(key);
    if (!items.IsSequence()) fail_at(file, items, fmt::format("key '{}': expected a list of solutions", key));
    for (const auto& item : items) {
      MapReader entry(item, file, what, allowed);
      KnownSolution solution;
      solution.file = existing(entry.require("file"), "file");
      solution.display = display_path(solution.file);
      solution.place = {file, item.Mark().line + 1, item.Mark().column + 1};
      read_rest(entry, &solution);
      list.push_back(solution);
    }
    return list;
  };
  out.accepted = read_list("accepted", "an accepted solution", {"file", "note", "slowdown"},
                           [&](const MapReader& entry, KnownSolution* solution) {
                             solution->note = entry.string_or("note", "");
                             if (!entry.has("slowdown")) return;
                             solution->slowdown = read_number(entry.get("slowdown"), file, "slowdown");
                             if (!(solution->slowdown > 1))
                               fail_at(file, entry.get("slowdown"), "key 'slowdown': expected a number above 1");
                           });
  out.wrong = read_list("wrong", "a wrong solution", {"file", "verdict", "mistake"},
                        [&](const MapReader& entry, KnownSolution* solution) {
                          solution->verdict = read_verdict(entry);
                          solution->note = entry.string("mistake");
                        });
  out.hint_tests =
      read_list("hint_tests", "a hint test", {"file", "verdict", "hints", "note"},
                [&](const MapReader& entry, KnownSolution* solution) {
                  solution->verdict = read_verdict(entry);
                  solution->note = entry.string_or("note", "");
                  YAML::Node hints = entry.require("hints");
                  if (!hints.IsSequence())
                    fail_at(file, hints, "key 'hints': expected a list of files under wrong/ (or [])");
                  for (const auto& hint : hints) {
                    std::string wanted = existing(hint, "hints");
                    bool listed = false;
                    for (const KnownSolution& wrong : out.wrong) listed = listed || wrong.file == wanted;
                    if (!listed)
                      fail_at(file, hint,
                              fmt::format("key 'hints': '{}' is not one of the wrong solutions listed above",
                                          read_string(hint, file, "hints")));
                    solution->hints.push_back(wanted);
                  }
                });
  return out;
}

}  // namespace judge
