// What the page of `judge serve` asks for, as JSON, apart from HTTP (the
// server in web/server.cpp routes requests here). Each answer is what the
// command of the same name computes: the list of `judge list --format
// json`, the files of `judge start`, the judging of `judge run`, the work
// of `judge try`, the attempts of `judge history`, the reference of `judge
// solution`. docs/web.md lists the endpoints.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "report/event_reporter.hpp"
#include "util/paths.hpp"

namespace judge {

// An answer: an HTTP status and a JSON body. A refusal's body is
// {"error": "why"}.
struct ApiReply {
  int status = 200;
  nlohmann::json body;
};

// GET /api/problems: {"problems": [problem_progress_json...], "broken": [{"problem", "error"}]}.
ApiReply api_problems(const Paths& paths);

// GET /api/problems/SLUG: title, statement (markdown), signature, limits,
// tolerance, samples (name, note, op, input, expect or throws, check),
// how many hidden cases, status, and the ops `judge try` takes with a
// sample input each.
ApiReply api_problem(const Paths& paths, const std::string& slug);

// GET /api/workspace/SLUG: {"exists", "file", "content", "version"}; the
// version changes whenever the file does (its modification time and size),
// so the page sees another editor's save.
ApiReply api_read_workspace(const Paths& paths, const std::string& slug);

// PUT /api/workspace/SLUG with {"content"?, "base_version"?}: a problem not
// started is started first (`judge start`: the stub and compile_flags.txt);
// then "content", when given, is written atomically. A base_version that
// is not the file's current one means someone else saved since the page
// loaded it: 409 with the current version, and nothing written (unless
// "force": true). Answers like api_read_workspace.
ApiReply api_write_workspace(const Paths& paths, const std::string& slug, const std::string& request_body);

// GET /api/history/SLUG: as `judge history --format json`.
ApiReply api_history(const Paths& paths, const std::string& slug);

// GET /api/solution/SLUG: {"reference", "explanation" (or null),
// "spoiler"}; 403 until the problem is solved in this workspace, unless
// `force` (then "spoiler": true), as `judge solution [--force]`.
ApiReply api_solution(const Paths& paths, const std::string& slug, bool force);

// POST /api/try/SLUG with {"op"?, "input": YAML text, "draws"?}: as `judge
// try --format json` on the workspace file, plus "markers" for a compile
// error. A bad input is 422 with the place and key.
ApiReply api_try(const Paths& paths, const std::string& slug, const std::string& request_body);

// POST /api/run/SLUG: judges the workspace file as `judge run SLUG` does
// (the same request, the result cache, hints, an attempt recorded), and
// tells `emit` as it goes: the events of event_reporter.hpp, then
//   done   {"status", "attempts", "markers": [...]}
// or, when the judge cannot judge (unknown problem, not started, a broken
// reference),
//   error  {"message"}.
void api_run(const Paths& paths, const std::string& slug, const EventSink& emit);

// The places in `text` (a compiler's diagnostics, a crash message) that
// name a line of `file` (as the judge's messages name it, display_path):
// {"line", "column" (0 when not given), "severity" ("error", "warning",
// "note"), "message"}, in order.
std::vector<nlohmann::json> learner_line_markers(const std::string& text, const std::string& file);

}  // namespace judge
