// The text and JSON forms of a `judge try` result.
#include "report/try_report.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "check/compare.hpp"
#include "package/result_codec.hpp"
#include "package/verdict.hpp"
#include "util/text.hpp"

namespace judge {
namespace {
using nlohmann::json;

constexpr std::size_t kShownItems = 8;
constexpr std::size_t kShownRows = 20;
constexpr std::size_t kPrintedLines = 10;
constexpr std::size_t kLabelWidth = 36;
constexpr const char* kUnderValues = "            ";  // under the values of "difference: "

std::string shown(const json& value, bool full) {
  return terminal_safe(brief(value, full ? std::numeric_limits<std::size_t>::max() : kShownItems));
}

// The input, its keys in the op's order.
std::string input_text(const TryResult& result, bool full) {
  std::string out;
  for (const std::string& name : result.input_names)
    if (result.input.contains(name)) out += (out.empty() ? "" : ", ") + name + ": " + shown(result.input[name], full);
  return "{" + out + "}";
}

std::string side_text(const char* name, const TrySide& side, bool full) {
  std::string out;
  if (side.returned)
    out = fmt::format("{:<11} {}\n", std::string(name) + ":", shown(side.value, full));
  else if (side.threw_invalid_argument && (side.verdict == Verdict::kAccepted || std::string(name) == "reference"))
    out = fmt::format("{:<11} {}\n", std::string(name) + ":", terminal_safe(side.message));
  else
    out = fmt::format("{:<11} {}: {}\n", std::string(name) + ":", verdict_name(side.verdict),
                      terminal_safe(side.message));
  if (!side.printed.empty())
    out += fmt::format("{}{} code printed:\n{}", kUnderValues, std::string(name) == "yours" ? "your" : "its",
                       indent_lines(side.printed, std::string(kUnderValues) + "| ", kPrintedLines));
  return out;
}

std::string frequency(std::int64_t count, std::int64_t draws) {
  return fmt::format("{:.4f}", draws ? static_cast<double>(count) / static_cast<double>(draws) : 0.0);
}

std::string tally_text(const Tally& tally) {
  std::size_t width = tally.title.size();
  for (std::size_t r = 0; r < tally.rows.size() && r < kShownRows; ++r)
    width = std::max(width, std::min(kLabelWidth, tally.rows[r].label.size()));
  std::string out =
      fmt::format("  {:<{}}  {:>9}  {:>9}  {:>9}\n", tally.title, width, "expected", "yours", "reference");
  for (std::size_t r = 0; r < tally.rows.size() && r < kShownRows; ++r) {
    const TallyRow& row = tally.rows[r];
    std::string label = terminal_safe(cap_characters(row.label, kLabelWidth, "..."));
    out += fmt::format("  {:<{}}  {:>9}  {:>9}  {:>9}\n", label, width,
                       row.expected ? fmt::format("{:.4f}", *row.expected) : "-", frequency(row.yours, tally.draws),
                       frequency(row.reference, tally.draws));
  }
  if (tally.rows.size() > kShownRows) {
    double expected = 0;
    std::int64_t yours = 0, reference = 0;
    for (std::size_t r = kShownRows; r < tally.rows.size(); ++r) {
      expected += tally.rows[r].expected.value_or(0);
      yours += tally.rows[r].yours;
      reference += tally.rows[r].reference;
    }
    out += fmt::format("  {:<{}}  {:>9}  {:>9}  {:>9}\n", fmt::format("({} more)", tally.rows.size() - kShownRows),
                       width, tally.against_expected ? fmt::format("{:.4f}", expected) : "-",
                       frequency(yours, tally.draws), frequency(reference, tally.draws));
  }
  out += fmt::format("  fit: chi-square {:.2f} for {} degree{} of freedom, p-value {:.3g} against {}{}\n",
                     tally.statistic, tally.degrees_of_freedom, tally.degrees_of_freedom == 1 ? "" : "s", tally.p_value,
                     tally.against_expected ? "the expected probabilities" : "the reference's draws",
                     tally.rejected ? fmt::format(": rejected (below {:.3g})", tally.rejected_below)
                                    : fmt::format(" (rejected below {:.3g})", tally.rejected_below));
  return out;
}

std::string draws_text(const TryResult& result, bool full) {
  std::string out = fmt::format("{:<11} {} seeds (the same on every run), {} each\n", "draws:", result.draws,
                                result.mode == TryMode::kSampler ? "one token" : "one answer");
  if (!result.yours.returned) out += side_text("yours", result.yours, full);
  for (const Tally& tally : result.tallies) out += tally_text(tally);
  if (!result.seeds.empty())
    out += result.mode == TryMode::kLaws ? "first seeds (each round [drafts, emitted]):\n" : "first seeds:\n";
  for (const SeedRow& row : result.seeds)
    out += fmt::format("  seed {:<20}  yours {}  reference {}\n", row.seed, shown(row.yours, full),
                       shown(row.reference, full));
  if (result.deterministic)
    out += fmt::format("{:<11} {}\n", "same seed:",
                       *result.deterministic           ? "the same answer when asked again"
                       : result.nondeterminism.empty() ? "not known (the second asking failed)"
                                                       : terminal_safe(result.nondeterminism));
  if (result.yours.returned && !result.yours.printed.empty())
    out += fmt::format("your code printed (last call):\n{}", indent_lines(result.yours.printed, "  | ", kPrintedLines));
  return out;
}

json side_json(const TrySide& side) {
  json out = {{"returned", side.returned}, {"printed", side.printed}};
  if (side.returned && !side.value.is_null()) out["value"] = with_named_non_finite(side.value);
  if (!side.returned) {
    out["threw_invalid_argument"] = side.threw_invalid_argument;
    out["verdict"] = verdict_name(side.verdict);
    out["message"] = side.message;
  }
  return out;
}

json tally_json(const Tally& tally) {
  json rows = json::array();
  for (const TallyRow& row : tally.rows) {
    json item = {{"label", row.label}, {"yours", row.yours}, {"reference", row.reference}};
    if (row.expected) item["expected"] = *row.expected;
    rows.push_back(item);
  }
  return {{"title", tally.title},
          {"draws", tally.draws},
          {"rows", rows},
          {"against_expected", tally.against_expected},
          {"statistic", tally.statistic},
          {"degrees_of_freedom", tally.degrees_of_freedom},
          {"p_value", tally.p_value},
          {"rejected_below", tally.rejected_below},
          {"rejected", tally.rejected},
          {"impossible", tally.impossible}};
}
}  // namespace

std::string try_text(const TryResult& result, bool full) {
  std::string out = fmt::format("{:<11} {}\n", "input:", input_text(result, full));
  if (!result.compiled)
    return out + indent_lines(result.diagnostics, "  ", 60) + fmt::format("{}: compile_error\n", result.problem);
  if (result.mode == TryMode::kValue) {
    out += side_text("yours", result.yours, full);
    out += side_text("reference", result.reference, full);
  } else {
    out += draws_text(result, full);
  }
  return out + fmt::format("{:<11} {}\n", "difference:", terminal_safe(result.difference));
}

json try_json(const TryResult& result) {
  json out = {{"schema_version", kJsonSchemaVersion},
              {"problem", result.problem},
              {"op", result.op},
              {"solution", result.solution},
              {"mode", try_mode_name(result.mode)},
              {"input", with_named_non_finite(result.input)},
              {"tolerance", {{"atol", result.tolerance.atol}, {"rtol", result.tolerance.rtol}}},
              {"compiled", result.compiled},
              {"agree", result.agree},
              {"difference", result.difference}};
  if (!result.compiled) {
    out["verdict"] = "compile_error";
    out["diagnostics"] = result.diagnostics;
    return out;
  }
  out["yours"] = side_json(result.yours);
  if (result.mode == TryMode::kValue) {
    out["reference"] = side_json(result.reference);
    return out;
  }
  out["draws"] = result.draws;
  json seeds = json::array(), tallies = json::array();
  for (const SeedRow& row : result.seeds)
    seeds.push_back({{"seed", row.seed},
                     {"yours", with_named_non_finite(row.yours)},
                     {"reference", with_named_non_finite(row.reference)}});
  for (const Tally& tally : result.tallies) tallies.push_back(tally_json(tally));
  out["seeds"] = seeds;
  out["tallies"] = tallies;
  out["deterministic"] = result.deterministic ? json(*result.deterministic) : json();
  if (!result.nondeterminism.empty()) out["nondeterminism"] = result.nondeterminism;
  return out;
}

}  // namespace judge
