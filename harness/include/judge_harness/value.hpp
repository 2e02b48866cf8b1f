// A small tree of values that carries a request's arguments into a runner and
// a result back out, without pulling a JSON library into the learner's
// translation unit (that keeps compiling a solution fast).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace judge_harness {

class Value {
 public:
  enum class Kind { kNull, kBool, kInt, kUInt, kDouble, kString, kDoubles, kIntegers, kList, kMap };

  Value() = default;
  static Value boolean(bool b);
  static Value integer(std::int64_t i);
  static Value unsigned_integer(std::uint64_t u);
  static Value number(double d);
  static Value string(std::string s);
  static Value doubles(std::vector<double> d);
  static Value ints(const std::vector<int>& ints);
  static Value integers(std::vector<std::int64_t> integers);
  static Value list();
  static Value map();

  Kind kind() const { return kind_; }

  // Builders for lists and maps; return *this so calls chain.
  Value& push(Value v);
  Value& set(std::string key, Value v);

  // Readers. Each throws judge_harness::BadRequest (a judge fault, not the
  // learner's) when the value has another shape.
  bool as_bool() const;
  std::int64_t as_int() const;
  std::uint64_t as_uint() const;
  double as_double() const;
  const std::string& as_string() const;
  std::vector<double> as_doubles() const;
  std::vector<int> as_ints() const;
  std::vector<std::uint64_t> as_uints() const;
  const std::vector<Value>& items() const;  // a list (a kDoubles or kIntegers value is expanded)
  const Value& at(const std::string& key) const;
  bool has(const std::string& key) const;
  const std::vector<std::pair<std::string, Value>>& fields() const { return fields_; }
  const std::vector<double>& raw_doubles() const { return doubles_; }
  const std::vector<std::int64_t>& raw_integers() const { return integers_; }

 private:
  Kind kind_ = Kind::kNull;
  bool bool_ = false;
  std::int64_t int_ = 0;
  std::uint64_t uint_ = 0;
  double double_ = 0;
  std::string string_;
  std::vector<double> doubles_;  // kDoubles: a list of numbers, stored flat
  // kIntegers: a list of integers, stored flat (a list of 100,000 token ids
  // as Values took 14 MB and most of a call's time).
  std::vector<std::int64_t> integers_;
  mutable std::vector<Value> items_;
  std::vector<std::pair<std::string, Value>> fields_;
};

// Thrown when a request does not have the shape an adapter expects.
struct BadRequest {
  std::string message;
};

}  // namespace judge_harness
