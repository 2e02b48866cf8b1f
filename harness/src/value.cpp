// Value: construction and checked readers.
#include <judge_harness/runner.hpp>
#include <judge_harness/value.hpp>

#include <cmath>
#include <limits>

namespace judge_harness {
namespace {
const char* kind_name(Value::Kind kind) {
  switch (kind) {
    case Value::Kind::kNull: return "null";
    case Value::Kind::kBool: return "bool";
    case Value::Kind::kInt: return "integer";
    case Value::Kind::kUInt: return "unsigned integer";
    case Value::Kind::kDouble: return "number";
    case Value::Kind::kString: return "string";
    case Value::Kind::kDoubles: return "list of numbers";
    case Value::Kind::kIntegers: return "list of integers";
    case Value::Kind::kList: return "list";
    case Value::Kind::kMap: return "map";
  }
  return "?";
}

[[noreturn]] void wrong_kind(const char* wanted, Value::Kind got) {
  throw BadRequest{std::string("expected ") + wanted + ", got " + kind_name(got)};
}
}  // namespace

Value Value::boolean(bool b) {
  Value v;
  v.kind_ = Kind::kBool;
  v.bool_ = b;
  return v;
}
Value Value::integer(std::int64_t i) {
  Value v;
  v.kind_ = Kind::kInt;
  v.int_ = i;
  return v;
}
Value Value::unsigned_integer(std::uint64_t u) {
  Value v;
  v.kind_ = Kind::kUInt;
  v.uint_ = u;
  return v;
}
Value Value::number(double d) {
  Value v;
  v.kind_ = Kind::kDouble;
  v.double_ = d;
  return v;
}
Value Value::string(std::string s) {
  Value v;
  v.kind_ = Kind::kString;
  v.string_ = std::move(s);
  return v;
}
Value Value::doubles(std::vector<double> d) {
  Value v;
  v.kind_ = Kind::kDoubles;
  v.doubles_ = std::move(d);
  return v;
}
Value Value::ints(const std::vector<int>& ints) {
  return integers(std::vector<std::int64_t>(ints.begin(), ints.end()));
}
Value Value::integers(std::vector<std::int64_t> integers) {
  Value v;
  v.kind_ = Kind::kIntegers;
  v.integers_ = std::move(integers);
  return v;
}
Value Value::list() {
  Value v;
  v.kind_ = Kind::kList;
  return v;
}
Value Value::map() {
  Value v;
  v.kind_ = Kind::kMap;
  return v;
}

Value& Value::push(Value v) {
  if (kind_ != Kind::kList) wrong_kind("list", kind_);
  items_.push_back(std::move(v));
  return *this;
}

Value& Value::set(std::string key, Value v) {
  if (kind_ != Kind::kMap) wrong_kind("map", kind_);
  fields_.emplace_back(std::move(key), std::move(v));
  return *this;
}

bool Value::as_bool() const {
  if (kind_ != Kind::kBool) wrong_kind("bool", kind_);
  return bool_;
}

std::int64_t Value::as_int() const {
  if (kind_ == Kind::kInt) return int_;
  if (kind_ == Kind::kUInt && uint_ <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    return static_cast<std::int64_t>(uint_);
  wrong_kind("integer", kind_);
}

std::uint64_t Value::as_uint() const {
  if (kind_ == Kind::kUInt) return uint_;
  if (kind_ == Kind::kInt && int_ >= 0) return static_cast<std::uint64_t>(int_);
  wrong_kind("unsigned integer", kind_);
}

double Value::as_double() const {
  if (kind_ == Kind::kDouble) return double_;
  if (kind_ == Kind::kInt) return static_cast<double>(int_);
  if (kind_ == Kind::kUInt) return static_cast<double>(uint_);
  wrong_kind("number", kind_);
}

const std::string& Value::as_string() const {
  if (kind_ != Kind::kString) wrong_kind("string", kind_);
  return string_;
}

std::vector<double> Value::as_doubles() const {
  if (kind_ == Kind::kDoubles) return doubles_;
  if (kind_ == Kind::kIntegers) return std::vector<double>(integers_.begin(), integers_.end());
  std::vector<double> out;
  for (const Value& item : items()) out.push_back(item.as_double());
  return out;
}

std::vector<int> Value::as_ints() const {
  auto narrow = [](std::int64_t i) {
    if (i < std::numeric_limits<int>::min() || i > std::numeric_limits<int>::max())
      throw BadRequest{"integer out of int range"};
    return static_cast<int>(i);
  };
  std::vector<int> out;
  if (kind_ == Kind::kIntegers) {
    out.reserve(integers_.size());
    for (std::int64_t i : integers_) out.push_back(narrow(i));
    return out;
  }
  for (const Value& item : items()) out.push_back(narrow(item.as_int()));
  return out;
}

std::vector<std::uint64_t> Value::as_uints() const {
  std::vector<std::uint64_t> out;
  if (kind_ == Kind::kIntegers) {
    out.reserve(integers_.size());
    for (std::int64_t i : integers_) {
      if (i < 0) wrong_kind("unsigned integer", Kind::kInt);
      out.push_back(static_cast<std::uint64_t>(i));
    }
    return out;
  }
  for (const Value& item : items()) out.push_back(item.as_uint());
  return out;
}

const std::vector<Value>& Value::items() const {
  if (kind_ == Kind::kDoubles) {
    if (items_.size() != doubles_.size()) {
      items_.clear();
      for (double d : doubles_) items_.push_back(number(d));
    }
    return items_;
  }
  if (kind_ == Kind::kIntegers) {
    if (items_.size() != integers_.size()) {
      items_.clear();
      for (std::int64_t i : integers_) items_.push_back(integer(i));
    }
    return items_;
  }
  if (kind_ != Kind::kList) wrong_kind("list", kind_);
  return items_;
}

const Value& Value::at(const std::string& key) const {
  if (kind_ != Kind::kMap) wrong_kind("map", kind_);
  for (const auto& [name, value] : fields_)
    if (name == key) return value;
  throw BadRequest{"missing argument '" + key + "'"};
}

bool Value::has(const std::string& key) const {
  if (kind_ != Kind::kMap) return false;
  for (const auto& field : fields_)
    if (field.first == key) return true;
  return false;
}

double arg_number(const Value& args, const char* key) { return args.at(key).as_double(); }
int arg_int(const Value& args, const char* key) {
  std::int64_t i = args.at(key).as_int();
  if (i < std::numeric_limits<int>::min() || i > std::numeric_limits<int>::max())
    throw BadRequest{std::string("argument '") + key + "' out of int range"};
  return static_cast<int>(i);
}
std::uint64_t arg_seed(const Value& args, const char* key) { return args.at(key).as_uint(); }
std::vector<double> arg_doubles(const Value& args, const char* key) { return args.at(key).as_doubles(); }
std::vector<int> arg_ints(const Value& args, const char* key) { return args.at(key).as_ints(); }
std::vector<std::uint64_t> arg_seeds(const Value& args, const char* key) { return args.at(key).as_uints(); }

Matrix arg_matrix(const Value& args, const char* key) {
  Matrix m;
  const auto& rows = args.at(key).items();
  m.rows = static_cast<int>(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::vector<double> r = rows[i].as_doubles();
    if (i == 0) m.cols = static_cast<int>(r.size());
    if (static_cast<int>(r.size()) != m.cols) throw BadRequest{std::string("ragged matrix '") + key + "'"};
    m.data.insert(m.data.end(), r.begin(), r.end());
  }
  return m;
}

Value matrix_value(int rows, int cols, const std::vector<double>& row_major) {
  Value out = Value::list();
  for (int r = 0; r < rows; ++r)
    out.push(Value::doubles(std::vector<double>(row_major.begin() + static_cast<long>(r) * cols,
                                                row_major.begin() + static_cast<long>(r + 1) * cols)));
  return out;
}

}  // namespace judge_harness
