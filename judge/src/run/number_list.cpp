// Lists of doubles read alike whether a typed array or a JSON list holds them.
#include "run/number_list.hpp"

#include <judge_harness/protocol.hpp>

namespace judge {
using nlohmann::json;

bool is_typed_doubles(const json& value) {
  return value.is_binary() && value.get_binary().has_subtype() &&
         value.get_binary().subtype() == judge_harness::kFloat64ArrayTag;
}

bool is_list(const json& value) { return value.is_array() || is_typed_doubles(value); }

std::size_t list_size(const json& value) {
  if (value.is_array()) return value.size();
  if (is_typed_doubles(value)) return value.get_binary().size() / sizeof(double);
  return 0;
}

std::vector<double> doubles_of(const json& value) {
  if (!is_typed_doubles(value)) return value.get<std::vector<double>>();
  std::vector<double> numbers(list_size(value));
  std::memcpy(numbers.data(), value.get_binary().data(), numbers.size() * sizeof(double));
  return numbers;
}

json expanded(const json& value) {
  if (is_typed_doubles(value)) return doubles_of(value);
  if (!value.is_structured()) return value;
  json out = value.is_object() ? json::object() : json::array();
  if (value.is_object())
    for (const auto& [key, item] : value.items()) out[key] = expanded(item);
  else
    for (const json& item : value) out.push_back(expanded(item));
  return out;
}

NumberList::NumberList(const json& list) : size_(list_size(list)) {
  if (is_typed_doubles(list))
    typed_ = list.get_binary().data();
  else
    list_ = &list;
}

}  // namespace judge
