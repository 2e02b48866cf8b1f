// for_each_candidate: the cuts and simplifications of each input type, in
// the order they are tried; size_change for the report.
#include "judging/shrink_candidates.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace judge {
using json = nlohmann::json;
namespace {
using Consider = std::function<bool(const json&)>;

// Entry by entry simplification costs a call per entry and per simpler
// value: worth it only once a list is this short.
constexpr std::size_t kEntriesSimplified = 32;

// Removes [from, to) for chunks of half the list, then a quarter, ... down
// to single entries, calling `cut(from, to)` for each; true as soon as one
// is taken. A list of one entry may be cut to none: the contract decides.
bool index_cuts(std::size_t size, const std::function<bool(std::size_t, std::size_t)>& cut) {
  if (size == 0) return false;
  for (std::size_t chunk = std::max<std::size_t>(1, size / 2);; chunk /= 2) {
    for (std::size_t from = 0; from < size; from += chunk)
      if (cut(from, std::min(size, from + chunk))) return true;
    if (chunk == 1) return false;
  }
}

json without(const json& list, std::size_t from, std::size_t to) {
  json out = json::array();
  for (std::size_t i = 0; i < list.size(); ++i)
    if (i < from || i >= to) out.push_back(list[i]);
  return out;
}

// How complicated a number reads: small integers first (positive before
// negative), then halves, then one decimal, then the rest; infinities and
// NaN last, so -inf is replaced only when the failure survives it.
double complexity(double value) {
  if (!std::isfinite(value)) return 1e300;
  double size = std::fabs(value) + (value < 0 ? 0.5 : 0);
  if (value == std::trunc(value)) return size;
  if (2 * value == std::trunc(2 * value)) return 1e3 + size;
  if (10 * value == std::trunc(10 * value)) return 1e6 + size;
  return 1e9 + size;
}

// Simpler numbers to put in place of `value`, simplest first.
std::vector<double> simpler_numbers(double value) {
  std::vector<double> options = {0, 1, -1, 0.5, 2, -2, 3, -3};
  if (std::isfinite(value)) {
    options.push_back(std::trunc(value));
    options.push_back(std::trunc(value / 2));
    options.push_back(std::round(value * 10) / 10);
  }
  std::vector<double> simpler;
  for (double option : options)
    if (complexity(option) < complexity(value) && std::find(simpler.begin(), simpler.end(), option) == simpler.end())
      simpler.push_back(option);
  std::stable_sort(simpler.begin(), simpler.end(), [](double a, double b) { return complexity(a) < complexity(b); });
  return simpler;
}

// Smaller integers (toward 0) to put in place of `value`, smallest first.
std::vector<std::int64_t> smaller_integers(std::int64_t value) {
  std::vector<std::int64_t> options = value > 0 ? std::vector<std::int64_t>{0, 1, 2, value / 2, value - 1}
                                                : std::vector<std::int64_t>{0, -1, value / 2, value + 1};
  std::vector<std::int64_t> smaller;
  for (std::int64_t option : options)
    if (std::llabs(option) < std::llabs(value) && std::find(smaller.begin(), smaller.end(), option) == smaller.end())
      smaller.push_back(option);
  return smaller;
}

// A number of the same JSON kind as `like` (an integer stays an integer:
// lists of doubles travel as typed arrays, and an `any` model's vocab must
// stay an integer).
bool number_candidates(const json& like, const Consider& consider) {
  if (like.is_number_integer()) {
    for (std::int64_t option : smaller_integers(like.get<std::int64_t>()))
      if (consider(json(option))) return true;
    return false;
  }
  if (!like.is_number()) return false;
  for (double option : simpler_numbers(like.get<double>()))
    if (consider(json(option))) return true;
  return false;
}

// Each entry of `list` simpler in turn (only for a short list).
bool entry_candidates(const json& list, const std::function<bool(const json&, const Consider&)>& simpler,
                      const Consider& consider) {
  if (!list.is_array() || list.size() > kEntriesSimplified) return false;
  for (std::size_t i = 0; i < list.size(); ++i) {
    bool taken = simpler(list[i], [&](const json& entry) {
      json out = list;
      out[i] = entry;
      return consider(out);
    });
    if (taken) return true;
  }
  return false;
}

// The finite numbers of `list` replaced by their rank among its distinct
// finite numbers (0, 1, 2, ...): order and ties kept, which is what most
// logit bugs depend on; infinities and NaN kept.
json ranked(const json& list) {
  std::vector<double> finite;
  for (const json& entry : list)
    if (entry.is_number() && std::isfinite(entry.get<double>())) finite.push_back(entry.get<double>());
  std::sort(finite.begin(), finite.end());
  finite.erase(std::unique(finite.begin(), finite.end()), finite.end());
  json out = json::array();
  for (const json& entry : list) {
    if (!entry.is_number() || !std::isfinite(entry.get<double>())) {
      out.push_back(entry);
      continue;
    }
    auto rank = std::lower_bound(finite.begin(), finite.end(), entry.get<double>()) - finite.begin();
    out.push_back(json(static_cast<double>(rank)));
  }
  return out;
}

bool list_cuts(const json& list, const Consider& consider) {
  if (!list.is_array()) return false;
  return index_cuts(list.size(), [&](std::size_t from, std::size_t to) { return consider(without(list, from, to)); });
}

// A value of no declared shape (a toy model): members and entries shrink
// one at a time, lists lose entries, numbers get simpler.
bool any_candidates(const json& value, const Consider& consider) {
  if (value.is_number()) return number_candidates(value, consider);
  if (value.is_array()) {
    if (list_cuts(value, consider)) return true;
    for (std::size_t i = 0; i < value.size(); ++i) {
      bool taken = any_candidates(value[i], [&](const json& entry) {
        json out = value;
        out[i] = entry;
        return consider(out);
      });
      if (taken) return true;
    }
    return false;
  }
  if (value.is_object()) {
    for (const auto& [key, member] : value.items()) {
      bool taken = any_candidates(member, [&, key = key](const json& smaller) {
        json out = value;
        out[key] = smaller;
        return consider(out);
      });
      if (taken) return true;
    }
  }
  return false;
}

bool is_matrix(const json& value) {
  if (!value.is_array() || value.empty()) return false;
  for (const json& row : value)
    if (!row.is_array() || row.size() != value[0].size()) return false;
  return true;
}

// The inputs of `op` of type `type` present in `input`, in spec order.
std::vector<std::string> inputs_of_type(const Operation& op, const json& input, ValueType type) {
  std::vector<std::string> names;
  for (const auto& [name, declared] : op.inputs)
    if (declared == type && input.contains(name)) names.push_back(name);
  return names;
}

// Matrices with the same number of rows lose the same rows (a kv cache's
// q, k and v are one row per step); with the same number of columns, the
// same columns (speculative decoding's draft and target rows over one
// vocabulary) unless the columns are attention heads.
bool matrix_cuts(const Operation& op, const json& input, bool columns_are_heads, const Consider& consider) {
  std::map<std::size_t, std::vector<std::string>> by_rows, by_columns;
  for (const std::string& name : inputs_of_type(op, input, ValueType::kMatrix)) {
    if (!is_matrix(input[name])) continue;
    by_rows[input[name].size()].push_back(name);
    by_columns[input[name][0].size()].push_back(name);
  }
  for (const auto& [rows, names] : by_rows) {
    bool taken = index_cuts(rows, [&, &names = names](std::size_t from, std::size_t to) {
      json out = input;
      for (const std::string& name : names) out[name] = without(input[name], from, to);
      return consider(out);
    });
    if (taken) return true;
  }
  if (columns_are_heads) return false;
  for (const auto& [columns, names] : by_columns) {
    bool taken = index_cuts(columns, [&, &names = names](std::size_t from, std::size_t to) {
      json out = input;
      for (const std::string& name : names) {
        out[name] = json::array();
        for (const json& row : input[name]) out[name].push_back(without(row, from, to));
      }
      return consider(out);
    });
    if (taken) return true;
  }
  return false;
}

// A path of SharedAxis (package/problem.hpp) split into members, each with
// whether it is followed by "[]" (every entry of that list).
std::vector<std::pair<std::string, bool>> path_members(const std::string& path) {
  std::vector<std::pair<std::string, bool>> members;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = std::min(path.find('.', start), path.size());
    std::string member = path.substr(start, end - start);
    bool every = member.size() > 2 && member.compare(member.size() - 2, 2, "[]") == 0;
    if (every) member.resize(member.size() - 2);
    members.emplace_back(member, every);
    start = end + 1;
  }
  return members;
}

// The places `path` names in `value`, in order; a missing member names none
// (a hashed model has no rows).
template <typename Json>
void places(Json& value, const std::vector<std::pair<std::string, bool>>& members, std::size_t at,
            std::vector<Json*>& out) {
  if (at == members.size()) {
    out.push_back(&value);
    return;
  }
  const auto& [member, every] = members[at];
  if (!value.is_object() || !value.contains(member)) return;
  Json& next = value[member];
  if (!every) return places(next, members, at + 1, out);
  if (!next.is_array()) return;
  for (auto& entry : next) places(entry, members, at + 1, out);
}

template <typename Json>
std::vector<Json*> places(Json& value, const std::vector<std::string>& paths) {
  std::vector<Json*> out;
  for (const std::string& path : paths) places(value, path_members(path), 0, out);
  return out;
}

// A head axis (HeadAxis, package/problem.hpp) as `input` holds it: valid
// when its three integers are positive, the groups divide the heads, and
// every list it names (each row of a matrix) is heads x width or groups x
// width wide. Candidates drop one group with its query heads, then make
// the groups smaller, then the heads narrower; each keeps every list, and
// the integers, consistent.
class Heads {
 public:
  Heads(const HeadAxis& axis, const json& input) : axis_(axis), input_(input) {
    std::optional<std::int64_t> heads = integer_at(axis.heads), groups = integer_at(axis.groups),
                                width = integer_at(axis.width);
    if (!heads || !groups || !width) return;
    heads_ = *heads, groups_ = *groups, width_ = *width;
    if (heads_ <= 0 || groups_ <= 0 || width_ <= 0 || heads_ % groups_ != 0) return;
    valid_ = matrices_among(axis.per_head) > 0 && rows_are(axis.per_head, heads_) && rows_are(axis.per_group, groups_);
  }

  bool valid() const { return valid_; }

  bool candidates(const Consider& consider) const {
    const std::int64_t group = heads_ / groups_;
    std::vector<std::int64_t> all_groups(static_cast<std::size_t>(groups_));
    for (std::int64_t g = 0; g < groups_; ++g) all_groups[static_cast<std::size_t>(g)] = g;
    // One group less, with its query heads.
    if (groups_ > 1)
      for (std::int64_t dropped = 0; dropped < groups_; ++dropped) {
        std::vector<std::int64_t> kept;
        for (std::int64_t g : all_groups)
          if (g != dropped) kept.push_back(g);
        if (consider(keep(query_heads(kept, group), kept, width_))) return true;
      }
    // Smaller groups.
    for (std::int64_t smaller : smaller_integers(group))
      if (smaller >= 1 && consider(keep(query_heads(all_groups, smaller), all_groups, width_))) return true;
    // Narrower heads.
    for (std::int64_t smaller : smaller_integers(width_))
      if (smaller >= 1 && consider(keep(query_heads(all_groups, group), all_groups, smaller))) return true;
    return false;
  }

 private:
  std::optional<std::int64_t> integer_at(const std::string& path) const {
    std::vector<const json*> found = places(input_, std::vector<std::string>{path});
    if (found.size() != 1 || !found[0]->is_number_integer()) return std::nullopt;
    return found[0]->get<std::int64_t>();
  }

  std::size_t matrices_among(const std::vector<std::string>& paths) const {
    std::size_t count = 0;
    for (const json* list : places(input_, paths)) count += is_matrix(*list);
    return count;
  }

  // Each row of every matrix of `paths` is `count` heads wide. A list of
  // numbers is not held to it: one of another width (an invalid last call)
  // is left as it is.
  bool rows_are(const std::vector<std::string>& paths, std::int64_t count) const {
    const std::size_t wide = static_cast<std::size_t>(count * width_);
    for (const json* list : places(input_, paths))
      if (is_matrix(*list) && (*list)[0].size() != wide) return false;
    return true;
  }

  // The first `per_group` query heads of each of the groups `groups`.
  std::vector<std::int64_t> query_heads(const std::vector<std::int64_t>& groups, std::int64_t per_group) const {
    std::vector<std::int64_t> heads;
    for (std::int64_t g : groups)
      for (std::int64_t i = 0; i < per_group; ++i) heads.push_back(g * (heads_ / groups_) + i);
    return heads;
  }

  // The first `width` numbers of each head of `heads` in a row.
  json columns(const json& row, const std::vector<std::int64_t>& heads, std::int64_t width) const {
    json kept = json::array();
    for (std::int64_t head : heads)
      for (std::int64_t j = 0; j < width; ++j) kept.push_back(row[static_cast<std::size_t>(head * width_ + j)]);
    return kept;
  }

  // Each list of `paths` (each row of a matrix) cut to `heads` of `width`;
  // a list of numbers of another width than `count` heads stays.
  void cut(json& out, const std::vector<std::string>& paths, std::int64_t count, const std::vector<std::int64_t>& heads,
           std::int64_t width) const {
    const std::size_t wide = static_cast<std::size_t>(count * width_);
    for (json* list : places(out, paths)) {
      if (!list->is_array() || list->empty()) continue;
      if (is_matrix(*list)) {
        for (json& row : *list) row = columns(row, heads, width);
      } else if (list->size() == wide && (*list)[0].is_number()) {
        *list = columns(*list, heads, width);
      }
    }
  }

  json keep(const std::vector<std::int64_t>& query, const std::vector<std::int64_t>& groups, std::int64_t width) const {
    json out = input_;
    cut(out, axis_.per_head, heads_, query, width);
    cut(out, axis_.per_group, groups_, groups, width);
    const auto heads = static_cast<std::int64_t>(query.size());
    for (json* same : places(out, axis_.same_as_heads))
      if (same->is_number_integer() && same->get<std::int64_t>() == heads_) *same = heads;
    *places(out, std::vector<std::string>{axis_.heads})[0] = heads;
    *places(out, std::vector<std::string>{axis_.groups})[0] = static_cast<std::int64_t>(groups.size());
    *places(out, std::vector<std::string>{axis_.width})[0] = width;
    return out;
  }

  const HeadAxis& axis_;
  const json& input_;
  bool valid_ = false;
  std::int64_t heads_ = 0, groups_ = 0, width_ = 0;
};

// The length of `axis` in `input`: its size integer, else its first list of
// entries; nullopt when the input does not hold the axis consistently (an
// invalid-input case whose lists disagree is left to the other cuts).
std::optional<std::size_t> axis_length(const SharedAxis& axis, const json& input) {
  std::optional<std::size_t> length;
  if (!axis.size.empty()) {
    std::vector<const json*> size = places(input, std::vector<std::string>{axis.size});
    if (size.size() != 1 || !size[0]->is_number_integer() || size[0]->get<std::int64_t>() < 0) return std::nullopt;
    length = size[0]->get<std::size_t>();
  }
  for (const json* entries : places(input, axis.entries)) {
    if (!entries->is_array()) return std::nullopt;
    if (!length) length = entries->size();
    if (entries->size() < *length) return std::nullopt;
  }
  for (const json* ids : places(input, axis.ids))
    for (const json& id : ids->is_array() ? *ids : json::array({*ids}))
      if (!id.is_number_integer() || id.get<std::int64_t>() < 0 || id.get<std::size_t>() >= length.value_or(0))
        return std::nullopt;
  return length;
}

// A sum or quotient of probabilities rounded to 12 decimals, so that 0.1 +
// 0.2 reads 0.3 (a distribution's sum moves by far less than the 1e-9 it
// is held to).
double tidy(double value) { return std::round(value * 1e12) / 1e12; }

// `input` without indices [from, to) of `axis`: dropped from every list of
// entries (distributions renormalized), the ids above renumbered, the size
// made smaller; nullopt when an id names a dropped index (something needs
// it) or a distribution would have no mass left.
std::optional<json> without_indices(const SharedAxis& axis, const json& input, std::size_t from, std::size_t to) {
  json out = input;
  const auto first = static_cast<std::int64_t>(from), last = static_cast<std::int64_t>(to);
  // An id, renumbered; false when it names a dropped index.
  auto renumber = [&](json& id) {
    std::int64_t value = id.get<std::int64_t>();
    if (value >= first && value < last) return false;
    if (value >= last) id = value - (last - first);
    return true;
  };
  for (json* ids : places(out, axis.ids)) {
    if (!ids->is_array()) {
      if (!renumber(*ids)) return std::nullopt;
      continue;
    }
    for (json& id : *ids)
      if (!renumber(id)) return std::nullopt;
  }
  for (json* entries : places(out, axis.entries)) {
    *entries = without(*entries, from, to);
    if (!axis.distributions) continue;
    double mass = 0;
    for (const json& p : *entries) mass += p.is_number() ? p.get<double>() : 0;
    if (!(mass > 0)) return std::nullopt;
    if (std::fabs(mass - 1) <= 1e-9) continue;  // the tokens dropped had no mass
    json* largest = nullptr;
    double sum = 0;
    for (json& p : *entries) {
      if (!p.is_number()) continue;
      p = tidy(p.get<double>() / mass);
      sum += p.get<double>();
      if (!largest || p.get<double>() > largest->get<double>()) largest = &p;
    }
    *largest = tidy(largest->get<double>() + (1 - sum));  // what rounding took, back where it reads least
  }
  if (!axis.size.empty())
    for (json* size : places(out, std::vector<std::string>{axis.size}))
      *size = size->get<std::int64_t>() - (last - first);
  return out;
}

// `input` with index `from` of `axis` merged into index `into`: each list of
// entries adds the one to the other (a distribution keeps its sum), ids of
// `from` name `into`, then `from` is dropped; nullopt when an entry is not
// a number.
std::optional<json> merged(const SharedAxis& axis, const json& input, std::size_t from, std::size_t into) {
  json out = input;
  const auto gone = static_cast<std::int64_t>(from), kept = static_cast<std::int64_t>(into);
  auto renumber = [&](json& id) {
    std::int64_t value = id.get<std::int64_t>();
    if (value == gone) value = kept;
    id = value > gone ? value - 1 : value;
  };
  for (json* ids : places(out, axis.ids)) {
    if (!ids->is_array()) {
      renumber(*ids);
      continue;
    }
    for (json& id : *ids) renumber(id);
  }
  for (json* entries : places(out, axis.entries)) {
    json& a = (*entries)[into];
    const json& b = (*entries)[from];
    if (!a.is_number() || !b.is_number()) return std::nullopt;
    a = tidy(a.get<double>() + b.get<double>());
    *entries = without(*entries, from, from + 1);
  }
  if (!axis.size.empty())
    for (json* size : places(out, std::vector<std::string>{axis.size})) *size = size->get<std::int64_t>() - 1;
  return out;
}

// Each axis of `op` loses indices: halves first, down to single ones; then,
// on a short axis, one index merged into another (a token that carries
// mass the failure needs, or that an id names, can still go: two tokens
// become one).
bool axis_cuts(const Operation& op, const json& input, const Consider& consider) {
  for (const SharedAxis& axis : op.axes) {
    std::optional<std::size_t> length = axis_length(axis, input);
    if (!length) continue;
    bool taken = index_cuts(*length, [&](std::size_t from, std::size_t to) {
      std::optional<json> smaller = without_indices(axis, input, from, to);
      return smaller && consider(*smaller);
    });
    if (taken) return true;
    if (*length > kEntriesSimplified) continue;
    for (std::size_t from = *length; from-- > 0;)
      for (std::size_t into = 0; into < *length; ++into) {
        if (into == from) continue;
        std::optional<json> smaller = merged(axis, input, from, into);
        if (smaller && consider(*smaller)) return true;
      }
  }
  return false;
}

// Simpler distributions: in one list of entries of a distribution axis,
// the mass of one index moved onto another (the sum kept), which leaves a
// token of no mass that a later cut drops without renormalizing.
bool distribution_simplifications(const Operation& op, const json& input, const Consider& consider) {
  for (const SharedAxis& axis : op.axes) {
    std::optional<std::size_t> length = axis_length(axis, input);
    if (!axis.distributions || !length || *length > kEntriesSimplified) continue;
    const std::size_t lists = places(input, axis.entries).size();
    for (std::size_t list = 0; list < lists; ++list)
      for (std::size_t from = *length; from-- > 0;)
        for (std::size_t into = 0; into < *length; ++into) {
          json out = input;
          json& entries = *places(out, axis.entries)[list];
          if (into == from || !entries[from].is_number() || !entries[into].is_number() ||
              !(entries[from].get<double>() > 0))
            continue;
          entries[into] = tidy(entries[into].get<double>() + entries[from].get<double>());
          entries[from] = 0.0;
          if (consider(out)) return true;
        }
  }
  return false;
}

// Inputs whose lists are distributions along an axis: their numbers are not
// simplified one by one (a distribution would stop summing to 1).
std::set<std::string> distribution_inputs(const Operation& op) {
  std::set<std::string> names;
  for (const SharedAxis& axis : op.axes)
    if (axis.distributions)
      for (const std::string& path : axis.entries) names.insert(path_members(path).front().first);
  return names;
}

// The candidates of one declared input, each handed on as a whole input.
bool input_candidates(ValueType type, const std::string& name, const json& input, bool simplify,
                      const Consider& consider) {
  const json& value = input[name];
  Consider as_input = [&](const json& smaller) {
    json out = input;
    out[name] = smaller;
    return consider(out);
  };
  auto simpler_number = [](const json& entry, const Consider& with) { return number_candidates(entry, with); };
  switch (type) {
    case ValueType::kDoubles:
      if (!simplify) return list_cuts(value, as_input);
      if (value.is_array() && ranked(value) != value && as_input(ranked(value))) return true;
      return entry_candidates(value, simpler_number, as_input);
    case ValueType::kInts:
      return simplify ? entry_candidates(value, simpler_number, as_input) : list_cuts(value, as_input);
    case ValueType::kMatrix:
      if (!simplify || !is_matrix(value) || value.size() * value[0].size() > kEntriesSimplified) return false;
      return entry_candidates(
          value, [&](const json& row, const Consider& with) { return entry_candidates(row, simpler_number, with); },
          as_input);
    case ValueType::kInteger:
    case ValueType::kNumber: return simplify && number_candidates(value, as_input);
    case ValueType::kAny: return !simplify && any_candidates(value, as_input);
    default:  // seeds the judge supplies, booleans, strings
      return false;
  }
}
}  // namespace

bool for_each_candidate(const Operation& op, const json& input, const Consider& consider) {
  // Structure first (fewer heads, steps, entries), then simpler values.
  bool columns_are_heads = false;
  for (const HeadAxis& axis : op.head_axes) {
    Heads heads(axis, input);
    if (!heads.valid()) continue;
    columns_are_heads = true;
    if (heads.candidates(consider)) return true;
  }
  if (axis_cuts(op, input, consider)) return true;
  if (matrix_cuts(op, input, columns_are_heads, consider)) return true;
  const std::set<std::string> distributions = distribution_inputs(op);
  for (bool simplify : {false, true})
    for (const auto& [name, type] : op.inputs)
      if (input.contains(name) && !(simplify && distributions.count(name)) &&
          input_candidates(type, name, input, simplify, consider))
        return true;
  return distribution_simplifications(op, input, consider);
}

namespace {
// 131072 -> "131,072".
std::string grouped(std::size_t number) {
  std::string digits = std::to_string(number), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::size_t numbers_in(const json& value) {
  if (value.is_number()) return 1;
  std::size_t count = 0;
  if (value.is_structured())
    for (const json& item : value) count += numbers_in(item);
  return count;
}

std::string shape(const json& value) {
  if (is_matrix(value)) return fmt::format("{}x{}", value.size(), value[0].size());
  return grouped(value.is_array() ? value.size() : 0);
}
}  // namespace

std::string size_change(const Operation& op, const json& before, const json& after) {
  std::vector<std::string> changes;
  for (const SharedAxis& axis : op.axes) {
    std::optional<std::size_t> was = axis_length(axis, before), now = axis_length(axis, after);
    if (was && now && *was != *now)
      changes.push_back(fmt::format("{} {} -> {}", axis.name, grouped(*was), grouped(*now)));
  }
  for (const auto& [name, type] : op.inputs) {
    if (!before.contains(name) || !after.contains(name)) continue;
    const json &was = before[name], &now = after[name];
    switch (type) {
      case ValueType::kDoubles:
      case ValueType::kInts:
      case ValueType::kMatrix:
        if (shape(was) != shape(now))
          changes.push_back(
              fmt::format("{} {} -> {}{}", name, shape(was), shape(now), type == ValueType::kMatrix ? "" : " entries"));
        break;
      case ValueType::kInteger:
        if (was != now) changes.push_back(fmt::format("{} {} -> {}", name, was.dump(), now.dump()));
        break;
      case ValueType::kAny:
        if (numbers_in(was) != numbers_in(now))
          changes.push_back(
              fmt::format("{} {} -> {} numbers", name, grouped(numbers_in(was)), grouped(numbers_in(now))));
        break;
      default: break;
    }
  }
  std::string text;
  for (const std::string& change : changes) text += (text.empty() ? "" : ", ") + change;
  return text;
}

}  // namespace judge
