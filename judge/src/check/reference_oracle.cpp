// ReferenceOracle: memoized calls into the reference runner.
#include "check/reference_oracle.hpp"

#include <fmt/format.h>

#include "check/compare.hpp"
#include "util/errors.hpp"

namespace judge {

ReferenceOracle::ReferenceOracle(const Problem& problem, std::string binary)
    : problem_(problem), session_(std::move(binary), limits_for(problem, /*sanitize=*/false)) {}

nlohmann::json ReferenceOracle::call(const std::string& op, const nlohmann::json& args) {
  double ignored = 0;
  return call_timed(op, args, &ignored);
}

nlohmann::json ReferenceOracle::call_timed(const std::string& op, const nlohmann::json& args, double* wall_ms) {
  *wall_ms = 0;
  // The encoded request is the memo's key: CBOR, not dump(), so exact for
  // every double (NaN and inf included).
  Request request(op, args);
  auto found = memo_.find(request.frame());
  if (found != memo_.end()) return found->second;
  CallResult result = session_.call(request, std::max(problem_.time_ms * 10, 30000));
  if (result.outcome != CallResult::Outcome::kValue)
    throw JudgeFault{fmt::format("{}: the reference solution did not return a value for op '{}' on {}: {}{}{}",
                                 problem_.slug, op, brief(args, 4), result.detail, result.exception_type,
                                 result.what.empty() ? "" : ": " + result.what)};
  *wall_ms = result.wall_ms;
  return memo_[request.frame()] = std::move(result.value);
}

CallResult ReferenceOracle::fresh_call(const Request& request) {
  return session_.call(request, std::max(problem_.time_ms * 10, 30000));
}

}  // namespace judge
