// The runner's main: answers the judge's requests one at a time by calling
// the operations the problem adapter registered.
#include <judge_harness/channel_cbor.hpp>
#include <judge_harness/input_watch.hpp>
#include <judge_harness/protocol.hpp>
#include <judge_harness/runner.hpp>
#include <judge_harness/utf8.hpp>

#include <cxxabi.h>
#include <bit>
#include <cstring>
#include <ctime>
#include <map>
#include <new>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <typeinfo>

namespace judge_harness {
std::string& channel_nonce();  // channel.cpp

static_assert(std::endian::native == std::endian::little, "typed arrays on the channel are little endian");

namespace {
using nlohmann::json;

std::map<std::string, Operation>& registry() {
  static std::map<std::string, Operation> operations;
  return operations;
}

Value from_json(const json& j) {
  switch (j.type()) {
    case json::value_t::null: return Value();
    case json::value_t::boolean: return Value::boolean(j.get<bool>());
    case json::value_t::number_integer: return Value::integer(j.get<std::int64_t>());
    case json::value_t::number_unsigned: return Value::unsigned_integer(j.get<std::uint64_t>());
    case json::value_t::number_float: return Value::number(j.get<double>());
    case json::value_t::string: return Value::string(j.get<std::string>());
    case json::value_t::binary: {
      const json::binary_t& bytes = j.get_binary();
      if (bytes.has_subtype() && bytes.subtype() == kFloat64ArrayTag && bytes.size() % sizeof(double) == 0) {
        std::vector<double> flat(bytes.size() / sizeof(double));
        std::memcpy(flat.data(), bytes.data(), bytes.size());
        return Value::doubles(std::move(flat));
      }
      if (bytes.has_subtype() && bytes.subtype() == kInt64ArrayTag && bytes.size() % sizeof(std::int64_t) == 0) {
        std::vector<std::int64_t> flat(bytes.size() / sizeof(std::int64_t));
        std::memcpy(flat.data(), bytes.data(), bytes.size());
        return Value::integers(std::move(flat));
      }
      throw BadRequest{"unsupported tagged value in request"};
    }
    case json::value_t::array: {
      bool all_float = !j.empty();
      for (const json& item : j) all_float = all_float && item.is_number_float();
      if (all_float) {
        std::vector<double> flat;
        flat.reserve(j.size());
        for (const json& item : j) flat.push_back(item.get<double>());
        return Value::doubles(std::move(flat));
      }
      Value list = Value::list();
      for (const json& item : j) list.push(from_json(item));
      return list;
    }
    case json::value_t::object: {
      Value map = Value::map();
      for (const auto& [key, item] : j.items()) map.set(key, from_json(item));
      return map;
    }
    default: throw BadRequest{"unsupported value in request"};
  }
}

json to_json(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kNull: return nullptr;
    case Value::Kind::kBool: return v.as_bool();
    case Value::Kind::kInt: return v.as_int();
    case Value::Kind::kUInt: return v.as_uint();
    case Value::Kind::kDouble: return v.as_double();
    case Value::Kind::kString: return v.as_string();
    case Value::Kind::kDoubles: {
      const std::vector<double>& flat = v.raw_doubles();
      if (flat.empty()) return json::array();
      const auto* first = reinterpret_cast<const std::uint8_t*>(flat.data());
      return json::binary(json::binary_t::container_type(first, first + flat.size() * sizeof(double)),
                          kFloat64ArrayTag);
    }
    case Value::Kind::kIntegers: {
      const std::vector<std::int64_t>& flat = v.raw_integers();
      if (flat.empty()) return json::array();
      const auto* first = reinterpret_cast<const std::uint8_t*>(flat.data());
      return json::binary(json::binary_t::container_type(first, first + flat.size() * sizeof(std::int64_t)),
                          kInt64ArrayTag);
    }
    case Value::Kind::kList: {
      json out = json::array();
      for (const Value& item : v.items()) out.push_back(to_json(item));
      return out;
    }
    case Value::Kind::kMap: {
      json out = json::object();
      for (const auto& [key, item] : v.fields()) out[key] = to_json(item);
      return out;
    }
  }
  return nullptr;
}

std::string demangled(const std::type_info& type) {
  int status = 0;
  char* name = abi::__cxa_demangle(type.name(), nullptr, nullptr, &status);
  std::string out = status == 0 && name ? name : type.name();
  std::free(name);
  return out;
}

json describe_exception(std::exception_ptr error) {
  json reply;
  try {
    std::rethrow_exception(error);
  } catch (const BadRequest& e) {
    reply["harness_error"] = e.message;
  } catch (const std::bad_alloc& e) {
    reply["exception"] = "bad_alloc";
    reply["type"] = demangled(typeid(e));
    reply["what"] = e.what();
  } catch (const std::invalid_argument& e) {
    reply["exception"] = "invalid_argument";
    reply["type"] = demangled(typeid(e));
    reply["what"] = e.what();
  } catch (const std::exception& e) {
    reply["exception"] = "other";
    reply["type"] = demangled(typeid(e));
    reply["what"] = e.what();
  } catch (...) {
    reply["exception"] = "other";
    std::type_info* type = abi::__cxa_current_exception_type();
    reply["type"] = type ? demangled(*type) : "unknown";
    reply["what"] = "";
  }
  return reply;
}

// The inputs the learner's code changed during the request, as facts for
// the judge (input_watch.hpp).
json changed_inputs(const std::vector<InputChange>& changes) {
  json list = json::array();
  for (const InputChange& change : changes) {
    json fact = {{"input", change.input}, {"matrix", change.matrix}};
    if (change.shape_changed) {
      fact["shape_was"] = {change.rows_was, change.cols_was};
      fact["shape_now"] = {change.rows_now, change.cols_now};
    } else {
      fact["entry"] = {change.row, change.col};
      fact["was"] = change.was;
      fact["now"] = change.now;
    }
    list.push_back(std::move(fact));
  }
  return list;
}

// Every string of `reply` made valid UTF-8 (utf8.hpp): the learner's
// what() and the text an op returns may hold any bytes, and the judge
// takes a reply with invalid text for a forged one.
void escape_invalid_text(json* reply) {
  if (reply->is_string()) {
    std::string& text = reply->get_ref<std::string&>();
    if (!is_valid_utf8(text)) text = with_invalid_utf8_escaped(text);
  } else if (reply->is_structured()) {
    for (json& item : *reply) escape_invalid_text(&item);
  }
}

json serve_one(const json& request) {
  const std::string& name = request.at("op").get_ref<const std::string&>();
  auto found = registry().find(name);
  if (found == registry().end()) return json{{"harness_error", "unknown operation '" + name + "'"}};
  Value args = from_json(request.at("args"));
  json reply;
  take_input_changes();  // none left from a request that failed before replying
  try {
    Value result = found->second(args);
    reply["value"] = to_json(result);
  } catch (...) {
    reply = describe_exception(std::current_exception());
  }
  std::vector<InputChange> changes = take_input_changes();
  if (!changes.empty() && !reply.contains("harness_error")) reply["changed_inputs"] = changed_inputs(changes);
  return reply;
}
}  // namespace

bool register_operation(const char* name, Operation op) {
  registry()[name] = op;
  return true;
}

}  // namespace judge_harness

int main() {
  using judge_harness::kChannelFd;
  const std::string& nonce = judge_harness::channel_nonce();
  // Ready: the learner's static initializers have run. A runner that dies
  // or hangs before this frame would do so again however often restarted.
  if (!judge_harness::write_frame(kChannelFd, nonce)) return 98;
  std::string payload;
  while (judge_harness::read_frame(kChannelFd, &payload)) {
    nlohmann::json reply;
    try {
      nlohmann::json request;
      std::string problem;
      if (!judge_harness::decode_channel_cbor(payload.data(), payload.size(), &request, &problem)) {
        reply = {{"harness_error", "bad request: " + problem}};
      } else if (request.at("op") == "exit") {
        return 0;
      } else {
        reply = judge_harness::serve_one(request);
      }
    } catch (const std::bad_alloc&) {
      reply = {{"exception", "bad_alloc"}, {"type", "std::bad_alloc"}, {"what", "while decoding or encoding"}};
    } catch (const std::exception& e) {
      reply = {{"harness_error", std::string("bad request: ") + e.what()}};
    }
    judge_harness::escape_invalid_text(&reply);
    std::vector<std::uint8_t> body = nlohmann::json::to_cbor(reply);
    std::string frame = nonce;
    frame.append(body.begin(), body.end());
    if (!judge_harness::write_frame(kChannelFd, frame)) return 98;
  }
  return 0;
}
