// Lists of doubles as the judge holds a runner's reply: the typed array the
// channel carried (one byte string of float64s, run/wire_format.hpp), kept
// as it came instead of a JSON number per entry. A value from anywhere else
// (a problem file, a fake runner in tests) holds the same list as a JSON
// list. These read both alike; code that reads a reply's lists of numbers
// goes through them.
#pragma once

#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <vector>

namespace judge {

// True for a typed array of doubles (a JSON binary value with the channel's
// float64 tag).
bool is_typed_doubles(const nlohmann::json& value);

// True for a JSON list or a typed array of doubles.
bool is_list(const nlohmann::json& value);

// The entries of a JSON list or of a typed array; 0 for anything else.
std::size_t list_size(const nlohmann::json& value);

// The numbers of a JSON list of numbers or of a typed array; throws
// nlohmann::json::type_error, as get<std::vector<double>> does, for
// anything else.
std::vector<double> doubles_of(const nlohmann::json& value);

// `value` with every typed array, at any depth, turned into a JSON list:
// for what leaves the judge's memory (reports, stored results, messages
// that dump JSON) and for equality with a value from a problem file.
nlohmann::json expanded(const nlohmann::json& value);

// Read-only random access to a list of numbers held either way, for loops
// over long lists: no JSON value is made per entry.
class NumberList {
 public:
  // `list` must outlive the view; is_list(list) must be true.
  explicit NumberList(const nlohmann::json& list);
  std::size_t size() const { return size_; }
  // Whether entry `i` is a number (always, in a typed array).
  bool is_number(std::size_t i) const { return typed_ != nullptr || (*list_)[i].is_number(); }
  // Entry `i`, which must be a number.
  double operator[](std::size_t i) const {
    if (typed_ == nullptr) return (*list_)[i].get<double>();
    double number;
    std::memcpy(&number, typed_ + i * sizeof number, sizeof number);
    return number;
  }

 private:
  const nlohmann::json* list_ = nullptr;
  const std::uint8_t* typed_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace judge
