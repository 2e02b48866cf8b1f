// ReferenceOracle: memoized calls into the reference runner.
#include "check/reference_oracle.hpp"

#include <fmt/format.h>

#include <mutex>
#include <optional>
#include <unordered_map>

#include "check/compare.hpp"
#include "util/errors.hpp"

namespace judge {
namespace {
// The reference's answers, shared by every oracle of the process over the
// same binary: `judge grade` judges a class against one reference, and each
// submission would otherwise ask it the same questions again (131,072-token
// expectations, sampler distributions). Bounded by the bytes of the requests
// and answers kept; emptied when full.
class SharedMemo {
 public:
  std::optional<nlohmann::json> find(const std::string& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = answers_.find(key);
    if (found == answers_.end()) return std::nullopt;
    return found->second;
  }
  void keep(const std::string& key, const nlohmann::json& answer, std::size_t answer_bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (bytes_ + key.size() + answer_bytes > kMaxBytes) answers_.clear(), bytes_ = 0;
    if (answers_.emplace(key, answer).second) bytes_ += key.size() + answer_bytes;
  }

 private:
  static constexpr std::size_t kMaxBytes = std::size_t{256} << 20;
  std::mutex mutex_;
  std::unordered_map<std::string, nlohmann::json> answers_;
  std::size_t bytes_ = 0;
};

SharedMemo& shared_memo() {
  static SharedMemo* memo = new SharedMemo();  // never freed: threads may use it until exit
  return *memo;
}

// About what a JSON value holds in memory.
std::size_t approximate_bytes(const nlohmann::json& value) {
  if (value.is_binary()) return 16 + value.get_binary().size();
  if (value.is_array() || value.is_object()) {
    std::size_t bytes = 16;
    for (const nlohmann::json& item : value) bytes += approximate_bytes(item);
    return bytes;
  }
  return value.is_string() ? 16 + value.get_ref<const std::string&>().size() : 16;
}
}  // namespace

ReferenceOracle::ReferenceOracle(const Problem& problem, std::string binary)
    : problem_(problem), binary_(binary), session_(std::move(binary), limits_for(problem, /*sanitize=*/false)) {}

nlohmann::json ReferenceOracle::call(const std::string& op, const nlohmann::json& args) {
  double ignored = 0;
  return call_timed(op, args, &ignored);
}

nlohmann::json ReferenceOracle::call_timed(const std::string& op, const nlohmann::json& args, double* wall_ms) {
  *wall_ms = 0;
  // The encoded request is the memo's key: CBOR, not dump(), so exact for
  // every double (NaN and inf included).
  Request request(op, args);
  const std::string key = binary_ + '\0' + request.frame();
  if (std::optional<nlohmann::json> known = shared_memo().find(key)) return std::move(*known);
  CallResult result = session_.call(request, std::max(problem_.time_ms * 10, 30000));
  if (result.outcome != CallResult::Outcome::kValue)
    throw JudgeFault{fmt::format("{}: the reference solution did not return a value for op '{}' on {}: {}{}{}",
                                 problem_.slug, op, brief(args, 4), result.detail, result.exception_type,
                                 result.what.empty() ? "" : ": " + result.what)};
  *wall_ms = result.wall_ms;
  shared_memo().keep(key, result.value, approximate_bytes(result.value));
  return std::move(result.value);
}

CallResult ReferenceOracle::fresh_call(const Request& request) {
  return session_.call(request, std::max(problem_.time_ms * 10, 30000));
}

}  // namespace judge
