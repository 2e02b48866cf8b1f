// The answers of the page's API (web/api.hpp): each reuses what its
// command computes, so the page and the command line never disagree.
#include "web/api.hpp"

#include <fmt/format.h>

#include <cctype>
#include <chrono>
#include <filesystem>

#include "judging/judging.hpp"
#include "judging/problem_catalog.hpp"
#include "judging/shrink.hpp"
#include "judging/try_run.hpp"
#include "package/layout.hpp"
#include "package/result_codec.hpp"
#include "package/typed_values.hpp"
#include "practice/progress_json.hpp"
#include "practice/workspace.hpp"
#include "report/try_report.hpp"
#include "sandbox/sandbox_policy.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"
#include "util/text.hpp"

namespace judge {
namespace fs = std::filesystem;
using nlohmann::json;
namespace {
// A workspace file larger than this is not the learner's header.
constexpr std::size_t kMaxWorkspaceBytes = 1 << 20;

ApiReply refusal(int status, const std::string& why) { return {status, {{"error", why}}}; }

// Runs `answer` for a known problem; an unknown one is 404, a judge's
// fault 500 with its message (the page shows it).
template <typename Answer>
ApiReply for_problem(const Paths& paths, const std::string& slug, Answer answer) {
  if (!is_problem(paths, slug)) return refusal(404, fmt::format("unknown problem '{}'", slug));
  try {
    return answer(ProblemCatalog(paths).load(slug));
  } catch (const JudgeFault& fault) {
    return refusal(500, fault.message);
  } catch (const SpecError& error) {
    return refusal(500, error.message);
  }
}

// The request's body as a JSON object, or nullopt.
std::optional<json> body_object(const std::string& body) {
  json parsed = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object()) return std::nullopt;
  return parsed;
}

// Changes whenever the file does: its modification time (ns) and size.
std::string file_version(const std::string& file) {
  std::error_code error;
  auto time = fs::last_write_time(file, error);
  if (error) return "";
  auto size = fs::file_size(file, error);
  if (error) return "";
  return fmt::format("{}-{}", time.time_since_epoch().count(), size);
}

json sample_json(const TestCase& test) {
  json out = {{"name", test.name},
              {"note", test.note},
              {"op", test.op},
              {"input", with_named_non_finite(test.input)},
              {"check", test.check}};
  if (test.expect) out["expect"] = with_named_non_finite(*test.expect);
  if (test.expects_invalid_argument) out["throws"] = "std::invalid_argument";
  return out;
}

// The ops `judge try PROBLEM` lists, each with a sample input to start from.
json try_ops_json(const Problem& problem) {
  json ops = json::array();
  for (const TryableOp& op : tryable_ops(problem)) {
    std::string example;
    if (op.example)
      for (const auto& [name, type] : op.op->inputs)
        if (op.example->input.contains(name))
          example += (example.empty() ? "" : ", ") + name + ": " + flow_yaml(op.example->input[name]);
    ops.push_back({{"op", op.op->name},
                   {"inputs", inputs_text(op)},
                   {"mode", try_mode_name(op.mode)},
                   {"example", example.empty() ? "" : "{" + example + "}"}});
  }
  return ops;
}

json markers_json(const std::string& text, const std::string& file) {
  json markers = json::array();
  for (json& marker : learner_line_markers(text, file)) markers.push_back(std::move(marker));
  return markers;
}

// Digits at `text[*at]`, moved past; 0 when there are none.
int read_number(const std::string& text, std::size_t* at) {
  int number = 0;
  while (*at < text.size() && std::isdigit(static_cast<unsigned char>(text[*at])) && number < 10'000'000)
    number = number * 10 + (text[(*at)++] - '0');
  return number;
}
}  // namespace

ApiReply api_problems(const Paths& paths) {
  std::vector<BrokenProblem> broken;
  std::vector<Problem> problems = ProblemCatalog(paths).load_all(&broken);
  json list = json::array();
  for (const Problem& problem : problems) list.push_back(problem_progress_json(paths, problem));
  json errors = json::array();
  for (const BrokenProblem& problem : broken) errors.push_back({{"problem", problem.slug}, {"error", problem.error}});
  return {200, {{"problems", list}, {"broken", errors}}};
}

ApiReply api_problem(const Paths& paths, const std::string& slug) {
  return for_problem(paths, slug, [&](const Problem& problem) {
    json samples = json::array();
    for (const TestCase& test : problem.samples) samples.push_back(sample_json(test));
    json out = problem_progress_json(paths, problem);
    out.update({{"statement", problem.statement},
                {"signature", problem.signature},
                {"time_ms", problem.time_ms},
                {"memory_mb", problem.memory_mb},
                {"tolerance", {{"atol", problem.tolerance.atol}, {"rtol", problem.tolerance.rtol}}},
                {"samples", samples},
                {"hidden_cases", problem.hidden.size()},
                {"try_ops", try_ops_json(problem)}});
    return ApiReply{200, out};
  });
}

ApiReply api_read_workspace(const Paths& paths, const std::string& slug) {
  return for_problem(paths, slug, [&](const Problem&) {
    std::string file = workspace_file(paths, slug);
    json out = {{"file", display_path(file)}, {"exists", fs::exists(file)}, {"content", ""}, {"version", ""}};
    if (!fs::exists(file)) return ApiReply{200, out};
    ReadRefusal refusal_kind = ReadRefusal::kNone;
    std::string version = file_version(file);
    std::optional<std::string> content = read_regular_file(file, kMaxWorkspaceBytes, &refusal_kind);
    if (!content) return refusal(500, fmt::format("{}: cannot be read as the solution file", display_path(file)));
    out["content"] = *content;
    out["version"] = version;
    return ApiReply{200, out};
  });
}

ApiReply api_write_workspace(const Paths& paths, const std::string& slug, const std::string& request_body) {
  std::optional<json> body = body_object(request_body);
  if (!body) return refusal(400, "the body must be a JSON object: {\"content\": \"...\", \"base_version\": \"...\"}");
  if (body->contains("content") && !(*body)["content"].is_string()) return refusal(400, "\"content\" must be a string");
  return for_problem(paths, slug, [&](const Problem& problem) {
    std::string file = workspace_file(paths, slug);
    if (!fs::exists(file)) start_problem(paths, problem);
    if (body->contains("content")) {
      const std::string& content = (*body)["content"].get_ref<const std::string&>();
      if (content.size() > kMaxWorkspaceBytes) return refusal(413, "a solution file is at most 1 MiB");
      std::string base = body->value("base_version", "");
      std::string current = file_version(file);
      if (!base.empty() && base != current && !body->value("force", false))
        return ApiReply{
            409,
            {{"error", fmt::format("{} changed since the page loaded it", display_path(file))}, {"version", current}}};
      write_file_atomically(file, content);
    }
    return api_read_workspace(paths, slug);
  });
}

ApiReply api_history(const Paths& paths, const std::string& slug) {
  return for_problem(paths, slug, [&](const Problem& problem) {
    json list = json::array();
    for (const Attempt& attempt : attempts_of(paths, problem.slug)) list.push_back(attempt_json(attempt));
    return ApiReply{
        200,
        {{"problem", problem.slug}, {"status", progress_name(progress_of(paths, problem.slug))}, {"attempts", list}}};
  });
}

ApiReply api_solution(const Paths& paths, const std::string& slug, bool force) {
  return for_problem(paths, slug, [&](const Problem& problem) {
    bool solved = progress_of(paths, problem.slug) == Progress::kSolved;
    if (!solved && !force)
      return refusal(403, fmt::format("{} is not solved in this workspace yet: solve it first, or see the reference "
                                      "anyway, which spoils the problem",
                                      problem.slug));
    const Package& package = problem.package;
    std::optional<std::string> reference = read_file(package.reference);
    if (!reference) return refusal(500, fmt::format("{}: the problem has no reference solution", package.reference));
    std::optional<std::string> explanation = read_file(package.explanation);
    return ApiReply{200,
                    {{"reference", *reference},
                     {"explanation", explanation ? json(*explanation) : json(nullptr)},
                     {"spoiler", !solved}}};
  });
}

ApiReply api_try(const Paths& paths, const std::string& slug, const std::string& request_body) {
  std::optional<json> body = body_object(request_body);
  if (!body || !body->contains("input") || !(*body)["input"].is_string())
    return refusal(400, "the body must be a JSON object with \"input\": YAML text");
  std::string input_text = (*body)["input"];
  // `judge try --input` also reads a file of that name; the page gives only YAML.
  std::error_code error;
  if (fs::exists(input_text, error)) return refusal(422, "give the input as YAML, e.g. {logits: [2, 1], p: 0.8}");
  return for_problem(paths, slug, [&](const Problem& problem) {
    std::string file = workspace_file(paths, slug);
    if (!fs::exists(file)) return refusal(409, fmt::format("{} is not started yet", slug));
    TryableOp op;
    TryInput input;
    try {
      op = choose_op(problem, body->value("op", ""));
      input = read_try_input(problem, op, input_text);
    } catch (const JudgeFault& fault) {
      return refusal(422, fault.message);
    } catch (const SpecError& spec_error) {
      return refusal(422, spec_error.message);
    }
    TryRequest request;
    request.build.solution_file = file;
    request.build.display_name = display_path(file);
    std::int64_t draws = body->value("draws", std::int64_t{10000});
    if (draws < 100 || draws > 1000000) return refusal(422, "draws: between 100 and 1000000");
    request.draws = draws;
    TryResult result = try_solution(paths, problem, op, input, request);
    json out = try_json(result);
    out["text"] = try_text(result, /*full=*/false);
    out["markers"] = markers_json(result.diagnostics, request.build.display_name);
    return ApiReply{200, out};
  });
}

void api_run(const Paths& paths, const std::string& slug, const EventSink& emit) {
  try {
    Problem problem = ProblemCatalog(paths).load(slug);
    JudgeRequest request;
    bool own_file = false;
    request.solution_file = solution_to_judge(paths, slug, "", /*reference=*/false, &own_file);
    request.display_name = display_path(request.solution_file);
    std::unique_ptr<Reporter> reporter = make_event_reporter(emit);
    reporter->begin_problem(problem, request.display_name);
    request.on_case = [&](const TestResult& result) { reporter->case_finished(result); };
    request.on_progress = [&](const std::string& what) { reporter->progress(what); };
    request.shrink_budget_ms = kDefaultShrinkBudgetMs;  // as `judge run`: the page shows the shrunk examples
    auto started = std::chrono::steady_clock::now();
    // The workspace's file is the page's owner's own, unless another user wrote it.
    std::string note = check_sandbox_for("serve", owned_by_someone_else(request.solution_file), false);
    ProblemResult result = judge_solution(paths, problem, request);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    result.sandbox_note = note;
    reporter->problem_finished(result);
    std::string not_recorded = record_attempt(paths, slug, result, seconds);
    say_attempt_not_recorded(not_recorded);  // on the terminal that runs judge serve
    json markers = markers_json(result.message, request.display_name);
    for (const TestResult& test : result.tests)
      for (json& marker : learner_line_markers(test.message, request.display_name)) markers.push_back(marker);
    json done = {{"status", progress_name(progress_of(paths, slug))},
                 {"attempts", attempts_of(paths, slug).size()},
                 {"markers", markers}};
    if (!not_recorded.empty()) done["not_recorded"] = not_recorded;
    emit("done", done);
  } catch (const JudgeFault& fault) {
    emit("error", {{"message", fault.message}});
  } catch (const SpecError& error) {
    emit("error", {{"message", error.message}});
  }
}

std::vector<json> learner_line_markers(const std::string& text, const std::string& file) {
  std::vector<json> markers;
  const std::string name = file + ":";
  std::size_t line_start = 0;
  while (line_start < text.size()) {
    std::size_t line_end = text.find('\n', line_start);
    if (line_end == std::string::npos) line_end = text.size();
    std::string line = text.substr(line_start, line_end - line_start);
    line_start = line_end + 1;
    std::size_t found = line.find(name);
    // The name must start the line or follow a space or "(": not be the tail of a longer path.
    while (found != std::string::npos && found > 0 && line[found - 1] != ' ' && line[found - 1] != '(')
      found = line.find(name, found + 1);
    if (found == std::string::npos) continue;
    std::size_t at = found + name.size();
    int number = read_number(line, &at);
    if (number <= 0) continue;
    int column = 0;
    if (at < line.size() && line[at] == ':') {
      ++at;
      column = read_number(line, &at);
    }
    json marker = {{"line", number}, {"column", column}, {"severity", "error"}, {"message", line}};
    // A compiler's "FILE:L:C: error: what" keeps its severity and its words.
    if (found == 0) {
      for (const char* severity : {"error", "fatal error", "warning", "note"}) {
        std::string tag = fmt::format(": {}: ", severity);
        if (line.compare(at, tag.size(), tag) == 0) {
          marker["severity"] = std::string(severity) == "fatal error" ? "error" : severity;
          marker["message"] = line.substr(at + tag.size());
        }
      }
    }
    markers.push_back(std::move(marker));
  }
  return markers;
}

}  // namespace judge
