// Loading solutions.yaml.
#include "spec/solutions_index.hpp"

#include <fmt/format.h>
#include <filesystem>

#include "spec/yaml_reader.hpp"
#include "util/text.hpp"

namespace judge {
namespace fs = std::filesystem;

std::optional<SolutionsIndex> load_solutions_index(const Package& package) {
  fs::path dir = package.solutions_dir;
  const std::string& file = package.solutions_index;
  if (!fs::is_regular_file(file)) return std::nullopt;
  YAML::Node root = load_yaml_file(file);
  MapReader index(root, file, "solutions index", {"reference", "accepted", "wrong"});
  SolutionsIndex out;
  auto existing = [&](const YAML::Node& node, const std::string& key) {
    std::string relative = read_string(node, file, key);
    fs::path path = dir / relative;
    if (!fs::is_regular_file(path)) fail_at(file, node, fmt::format("key '{}': no such file '{}'", key, relative));
    return path.lexically_normal().string();
  };
  out.reference = existing(index.require("reference"), "reference");
  auto read_list = [&](const char* key, bool wrong) {
    std::vector<KnownSolution> list;
    if (!index.has(key)) return list;
    YAML::Node items = index.get(key);
    if (!items.IsSequence()) fail_at(file, items, fmt::format("key '{}': expected a list of solutions", key));
    for (const auto& item : items) {
      std::vector<std::string> allowed =
          wrong ? std::vector<std::string>{"file", "verdict", "mistake"} : std::vector<std::string>{"file", "note"};
      MapReader entry(item, file, wrong ? "a wrong solution" : "an accepted solution", allowed);
      KnownSolution solution;
      solution.file = existing(entry.require("file"), "file");
      solution.display = display_path(solution.file);
      solution.place = {file, item.Mark().line + 1, item.Mark().column + 1};
      if (wrong) {
        std::string verdict = entry.string("verdict");
        auto parsed = verdict_from_name(verdict);
        if (!parsed || *parsed == Verdict::kAccepted)
          fail_at(file, entry.get("verdict"),
                  fmt::format("key 'verdict': expected wrong_answer, runtime_error, time_limit_exceeded, "
                              "memory_limit_exceeded or compile_error, got '{}'",
                              verdict));
        solution.verdict = *parsed;
        solution.note = entry.string("mistake");
      } else {
        solution.note = entry.string_or("note", "");
      }
      list.push_back(solution);
    }
    return list;
  };
  out.accepted = read_list("accepted", false);
  out.wrong = read_list("wrong", true);
  return out;
}

}  // namespace judge
