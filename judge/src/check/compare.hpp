// The one comparison rule for numbers, and comparison of whole outputs.
//
// A double passes when |got - want| <= atol or |got - want| <= rtol * |want|.
// NaN never passes; an expected infinity must be matched exactly, sign
// included; integers (token ids, lengths) are exact.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "package/problem.hpp"

namespace judge {

bool numbers_match(double want, double got, const Tolerance& tolerance);

// nullopt when `got` matches `want` as `type`; otherwise one line saying
// where and by how much, e.g. "index 2: expected 0.0986, got 0.1 (error
// 1.4e-03); 1 of 3 entries wrong". The tolerance is said once per problem
// (a case's own, by its checker).
std::optional<std::string> compare_output(ValueType type, const nlohmann::json& want, const nlohmann::json& got,
                                          const Tolerance& tolerance);

// nullopt when the ranked hypotheses `got` ({tokens, log_prob, score} each)
// match `want`: tokens equal, numbers within `tolerance`; otherwise the
// first hypothesis that differs, both shown whole (check/hypotheses.cpp).
std::optional<std::string> compare_hypotheses(const nlohmann::json& want, const nlohmann::json& got,
                                              const Tolerance& tolerance);

// A short rendering of a value for messages: at most `max_items` entries per list.
std::string brief(const nlohmann::json& value, std::size_t max_items = 8);

// "tolerance atol 1e-09 or rtol 1e-06"
std::string tolerance_text(const Tolerance& tolerance);

// "1e-09" style, for tolerances and errors.
std::string format_number(double value);

}  // namespace judge
