// ResultForm::kPublic and kFull, both ways.
#include "package/result_codec.hpp"

#include <cmath>
#include <limits>

namespace judge {
using nlohmann::json;

json returned_excerpt(const json& returned) {
  const std::string text = json_text(returned);
  if (text.size() <= kReturnedExcerptBytes) return returned;
  json first = json::array();
  std::size_t kept = 2;
  if (returned.is_array())
    for (const json& item : returned) {
      std::size_t size = json_text(item).size() + 1;
      if (kept + size > kReturnedExcerptBytes / 2) break;
      first.push_back(item);
      kept += size;
    }
  return {{"excerpt", std::move(first)}, {"items", returned.is_array() ? returned.size() : 1}, {"bytes", text.size()}};
}

json with_named_non_finite(const json& value) {
  if (value.is_number_float()) {
    double number = value.get<double>();
    if (std::isnan(number)) return "nan";
    if (std::isinf(number)) return number > 0 ? "inf" : "-inf";
    return value;
  }
  if (!value.is_structured()) return value;
  json out = value;
  for (auto& item : out) item = with_named_non_finite(item);
  return out;
}

json test_to_json(const TestResult& test, ResultForm form) {
  json out = {{"name", test.name},
              {"hidden", test.hidden},
              {"verdict", verdict_name(test.verdict)},
              {"time_ms", form == ResultForm::kPublic ? std::round(test.time_ms * 1000) / 1000 : test.time_ms},
              {"message", test.message}};
  if (form == ResultForm::kFull) {
    out["details"] = test.details;
    out["output"] = test.output;
    out["failure_kind"] = test.failure_kind;
    out["returned"] = returned_excerpt(test.returned);
    out["slowest_call_ms"] = test.slowest_call_ms;
    out["hint"] = test.hint;
    out["not_run"] = test.not_run;
    return out;
  }
  if (!test.hint.empty()) out["hint"] = test.hint;
  if (test.verdict != Verdict::kAccepted) {
    if (!test.note.empty()) out["note"] = test.note;
    if (!test.input.is_null()) out["input"] = with_named_non_finite(test.input);
    if (!test.details.empty()) out["details"] = test.details;
  }
  return out;
}

namespace {
// The inverse of with_named_non_finite, for a shrunk input read back from
// the result cache.
json with_numbered_non_finite(const json& value) {
  if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    if (text == "inf") return std::numeric_limits<double>::infinity();
    if (text == "-inf") return -std::numeric_limits<double>::infinity();
    if (text == "nan") return std::numeric_limits<double>::quiet_NaN();
    return value;
  }
  if (!value.is_structured()) return value;
  json out = value;
  for (auto& item : out) item = with_numbered_non_finite(item);
  return out;
}

json shrunk_to_json(const ShrunkExample& example) {
  json out = {{"from_case", example.from_case}, {"failure_kind", example.failure_kind}, {"shrunk", example.shrunk}};
  if (!example.shrunk) {
    out["reason"] = example.not_shrunk;
  } else {
    out["sizes"] = example.sizes;
    out["input"] = with_named_non_finite(example.input);
    out["message"] = example.message;
    out["details"] = example.details;
  }
  out["candidates_tried"] = example.candidates_tried;
  out["ms"] = std::round(example.ms * 1000) / 1000;
  return out;
}

ShrunkExample shrunk_from_json(const json& data) {
  ShrunkExample example;
  example.from_case = data.at("from_case");
  example.failure_kind = data.at("failure_kind");
  example.shrunk = data.at("shrunk");
  if (!example.shrunk) {
    example.not_shrunk = data.at("reason");
  } else {
    example.sizes = data.at("sizes");
    example.input = with_numbered_non_finite(data.at("input"));
    example.message = data.at("message");
    example.details = data.at("details");
  }
  example.candidates_tried = data.at("candidates_tried");
  example.ms = data.at("ms");
  return example;
}

}  // namespace

json result_to_json(const ProblemResult& result, ResultForm form) {
  json tests = json::array();
  for (const TestResult& test : result.tests) tests.push_back(test_to_json(test, form));
  json out = {{"problem", result.problem},
              {"verdict", verdict_name(result.verdict)},
              {"tolerance", {{"atol", result.tolerance.atol}, {"rtol", result.tolerance.rtol}}},
              {"tests", tests}};
  if (form == ResultForm::kFull || !result.message.empty()) out["message"] = result.message;
  if (form == ResultForm::kFull || !result.hints.empty()) {
    json hints = json::array();
    for (const Hint& hint : result.hints) hints.push_back({{"mistake", hint.mistake}, {"cases", hint.cases}});
    out["hints"] = hints;
  }
  if (form == ResultForm::kFull || !result.hints_cut_short.empty()) out["hints_cut_short"] = result.hints_cut_short;
  if (form == ResultForm::kFull || !result.shrunk.empty()) {
    json shrunk = json::array();
    for (const ShrunkExample& example : result.shrunk) shrunk.push_back(shrunk_to_json(example));
    out["shrunk"] = shrunk;
  }
  if (form == ResultForm::kPublic) out["solution"] = result.solution;
  if (form == ResultForm::kPublic && !result.sandbox_note.empty()) out["sandbox_note"] = result.sandbox_note;
  return out;
}

TestResult test_from_json(const json& data) {
  TestResult test;
  test.name = data.at("name");
  test.hidden = data.at("hidden");
  test.verdict = verdict_from_name(data.at("verdict")).value();
  test.time_ms = data.at("time_ms");
  test.message = data.at("message");
  test.details = data.at("details");
  test.output = data.at("output");
  test.failure_kind = data.at("failure_kind");
  test.returned = data.at("returned");
  test.slowest_call_ms = data.at("slowest_call_ms");
  test.hint = data.at("hint");
  test.not_run = data.at("not_run");
  return test;
}

ProblemResult result_from_json(const json& data) {
  ProblemResult result;
  result.problem = data.at("problem");
  result.verdict = verdict_from_name(data.at("verdict")).value();
  result.message = data.at("message");
  for (const json& test : data.at("tests")) result.tests.push_back(test_from_json(test));
  for (const json& hint : data.at("hints"))
    result.hints.push_back({hint.at("mistake"), hint.at("cases").get<std::vector<std::string>>()});
  result.hints_cut_short = data.at("hints_cut_short");
  for (const json& example : data.at("shrunk")) result.shrunk.push_back(shrunk_from_json(example));
  return result;
}

json with_schema_version(json object) {
  object["schema_version"] = kJsonSchemaVersion;
  return object;
}

std::string json_text(const json& value, int indent) {
  return value.dump(indent, ' ', false, json::error_handler_t::replace);
}

}  // namespace judge
