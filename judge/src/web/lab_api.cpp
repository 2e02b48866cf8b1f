#include "web/lab_api.hpp"

#include <fmt/format.h>

#include <cmath>
#include <optional>

#include "lab/lab.hpp"
#include "util/errors.hpp"

namespace judge {
namespace {
using nlohmann::json;

// A number of the body in [low, high], or its default; throws SpecError
// naming the key otherwise.
double lab_number(const json& body, const char* key, double fallback, double low, double high) {
  if (!body.contains(key)) return fallback;
  const json& value = body[key];
  if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < low ||
      value.get<double>() > high)
    throw SpecError{fmt::format("{}: a number from {} to {}", key, low, high)};
  return value.get<double>();
}

bool lab_flag(const json& body, const char* key) {
  if (!body.contains(key)) return false;
  if (!body[key].is_boolean()) throw SpecError{fmt::format("{}: true or false", key)};
  return body[key].get<bool>();
}

lab::LabRequest lab_request(const json& body) {
  lab::LabRequest request;
  lab::LabSettings& s = request.settings;
  if (body.contains("prompt")) {
    if (!body["prompt"].is_string() || body["prompt"].get<std::string>().size() > 1000)
      throw SpecError{"prompt: text of at most 1000 characters"};
    s.prompt = body["prompt"];
  }
  s.max_new_tokens = static_cast<int>(lab_number(body, "max_new_tokens", s.max_new_tokens, 1, 4096));
  s.temperature = lab_number(body, "temperature", s.temperature, 1e-3, 100);
  s.penalty = lab_number(body, "penalty", s.penalty, 0.01, 100);
  s.seed = static_cast<std::uint64_t>(lab_number(body, "seed", 1, 0, 9007199254740991.0));
  s.draft_tokens = static_cast<int>(lab_number(body, "draft_tokens", 0, 0, 16));
  s.beam_width = static_cast<int>(lab_number(body, "beam_width", 0, 0, 16));
  s.length_penalty = lab_number(body, "length_penalty", 1, 0, 10);
  s.greedy = lab_flag(body, "greedy");
  request.reference_only = lab_flag(body, "reference_only");
  const std::string filter = body.value("filter", std::string("top_p"));
  if (filter == "top_p")
    s.filter = {lab::Filter::Kind::kTopP, 0, lab_number(body, "top_p", 0.9, 1e-6, 1)};
  else if (filter == "top_k")
    s.filter = {lab::Filter::Kind::kTopK, static_cast<int>(lab_number(body, "top_k", 10, 1, 96)), 1};
  else if (filter == "none")
    s.filter = {lab::Filter::Kind::kNone, 0, 1};
  else
    throw SpecError{"filter: top_p, top_k or none"};
  return request;
}

}  // namespace

void api_lab(const Paths& paths, const std::string& request_body, const EventSink& emit) {
  try {
    const json body = json::parse(request_body.empty() ? "{}" : request_body, nullptr, false);
    if (!body.is_object()) throw SpecError{"the body must be a JSON object of the lab's settings"};
    lab::LabRequest request = lab_request(body);
    request.on_progress = [&](const std::string& what) { emit("progress", {{"what", what}}); };
    request.on_ready = [&](const lab::LabResult& ready) {
      const json whole = lab::lab_json(ready, false);
      emit("ready", {{"parts", whole["parts"]}, {"models", whole["models"]}});
    };
    request.on_token = [&](int token) {
      emit("token", {{"token", token}, {"char", std::string(1, lab::char_of(token))}});
    };
    emit("done", lab::lab_json(lab::run_lab(paths, request), /*steps=*/true));
  } catch (const SpecError& error) {
    emit("error", {{"message", error.message}});
  } catch (const JudgeFault& fault) {
    emit("error", {{"message", fault.message}});
  }
}

}  // namespace judge
