// Verdict names.
#include "package/verdict.hpp"

namespace judge {
namespace {
constexpr Verdict kAllVerdicts[] = {Verdict::kAccepted,          Verdict::kWrongAnswer,         Verdict::kRuntimeError,
                                    Verdict::kTimeLimitExceeded, Verdict::kMemoryLimitExceeded, Verdict::kCompileError};
}  // namespace

std::string verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::kAccepted: return "accepted";
    case Verdict::kWrongAnswer: return "wrong_answer";
    case Verdict::kRuntimeError: return "runtime_error";
    case Verdict::kTimeLimitExceeded: return "time_limit_exceeded";
    case Verdict::kMemoryLimitExceeded: return "memory_limit_exceeded";
    case Verdict::kCompileError: return "compile_error";
  }
  return "?";
}

std::optional<Verdict> verdict_from_name(const std::string& name) {
  for (Verdict verdict : kAllVerdicts)
    if (verdict_name(verdict) == name) return verdict;
  return std::nullopt;
}

}  // namespace judge
