// A judging as a stream of named events, for a page that shows cases as
// they finish (`judge serve` sends them as server-sent events).
//
//   begin     {"problem", "solution", "cases": how many}
//   progress  {"what": "compiling", ...}
//   case      one case in the public JSON form (package/result_codec.hpp)
//   result    the problem's result in the public JSON form
//
// Events arrive in that order; the sink is called from one thread at a time.
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "report/reporter.hpp"

namespace judge {

using EventSink = std::function<void(const std::string& event, const nlohmann::json& data)>;

std::unique_ptr<Reporter> make_event_reporter(EventSink sink);

}  // namespace judge
