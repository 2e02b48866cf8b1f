// shrink_input: greedy descent over the candidates, each checked once.
#include "judging/shrink_search.hpp"

#include <unordered_set>

#include "judging/shrink_candidates.hpp"

namespace judge {

ShrinkSearch shrink_input(const Operation& op, const nlohmann::json& input,
                          const std::function<bool(const nlohmann::json&)>& still_fails,
                          std::chrono::steady_clock::time_point deadline) {
  ShrinkSearch search;
  search.input = input;
  // Candidates already checked (by their hash: text would cost more than a
  // call on 131,072 numbers): after a step the search starts over, and most
  // candidates of the new input were candidates of the old one that did
  // not fail.
  const std::hash<nlohmann::json> hash;
  std::unordered_set<std::size_t> checked = {hash(input)};
  for (bool stepped = true; stepped;) {
    stepped = for_each_candidate(op, search.input, [&](const nlohmann::json& candidate) {
      if (std::chrono::steady_clock::now() >= deadline) {
        search.out_of_time = true;
        return true;  // ends the pass
      }
      if (!checked.insert(hash(candidate)).second) return false;
      ++search.tried;
      if (!still_fails(candidate)) return false;
      search.input = candidate;
      ++search.taken;
      return true;
    });
    if (search.out_of_time) break;
  }
  return search;
}

}  // namespace judge
