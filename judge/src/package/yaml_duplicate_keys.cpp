// Duplicate mapping keys found by walking a loaded YAML document
// (yaml_duplicate_keys.hpp).
#include "package/yaml_duplicate_keys.hpp"

#include <fmt/format.h>

#include <unordered_map>
#include <vector>

#include "util/errors.hpp"

namespace judge {
namespace {
// Throws for the first key of `mapping` given twice.
void check_mapping(const std::string& place, const YAML::Node& mapping) {
  std::unordered_map<std::string, int> first_line;  // key -> its line, 0-based
  for (const auto& entry : mapping) {
    if (!entry.first.IsScalar()) continue;
    const YAML::Mark mark = entry.first.Mark();
    auto [first, added] = first_line.emplace(entry.first.Scalar(), mark.line);
    if (!added)
      throw SpecError{fmt::format("{}:{}:{}: duplicate key '{}' (first at line {}); a key may appear once in a mapping",
                                  place, mark.line + 1, mark.column + 1, entry.first.Scalar(), first->second + 1)};
  }
}
}  // namespace

void check_duplicate_keys(const std::string& place, const YAML::Node& root) {
  // Depth first, in document order, without recursion (nesting may be deep).
  std::vector<YAML::Node> pending = {root};
  while (!pending.empty()) {
    YAML::Node node = pending.back();
    pending.pop_back();
    std::vector<YAML::Node> children;
    if (node.IsMap()) {
      check_mapping(place, node);
      for (const auto& entry : node) {
        if (!entry.first.IsScalar()) children.push_back(entry.first);
        children.push_back(entry.second);
      }
    } else if (node.IsSequence()) {
      for (const auto& item : node) children.push_back(item);
    }
    pending.insert(pending.end(), children.rbegin(), children.rend());
  }
}

}  // namespace judge
