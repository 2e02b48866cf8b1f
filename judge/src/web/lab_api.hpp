// POST /api/lab: `judge lab` for the page's Lab view (docs/web.md). The
// workspace's solved parts plugged in as `judge lab` plugs them, the reference
// beside, every step's distributions after each stage for the charts.
#pragma once

#include <string>

#include "report/event_reporter.hpp"
#include "util/paths.hpp"

namespace judge {

// Runs the lab with the settings of `request_body`, a JSON object of any of
// prompt, max_new_tokens, temperature, penalty, filter ("top_p", "top_k",
// "none"), top_p, top_k, greedy, seed, draft_tokens, reference_only; tells
// `emit`, as it goes:
//   ready  {"parts", "models"}          once the parts are built
//   token  {"token", "char"}            each token of the learner's run
//   done   the JSON of `judge lab --format json --steps`
// or error {"message"} for bad settings or a judge that cannot work.
void api_lab(const Paths& paths, const std::string& request_body, const EventSink& emit);

}  // namespace judge
