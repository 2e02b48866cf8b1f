// Shrinking failed cases: the search on its own with made-up failures
// (how far it gets, the structures it keeps consistent, its deadline), then
// the judge on the fixture package tests/fixtures/shrink, whose known
// mistakes fail on 131,072 logits and must be shown failing on a few.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "judging/shrink_candidates.hpp"
#include "judging/shrink_search.hpp"
#include "run_judge.hpp"
#include "scratch_root.hpp"
#include "spec/typed_values.hpp"

namespace judge {
namespace {
namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

Operation logits_op() { return Operation{"probs", {{"logits", ValueType::kDoubles}, {"k", ValueType::kInteger}}, ValueType::kDoubles}; }

json random_logits(std::size_t n, std::uint64_t seed) {
  SplitMix64 stream(seed);
  json logits = json::array();
  for (std::size_t i = 0; i < n; ++i) logits.push_back(std::round(stream.uniform01() * 2000 - 1000) / 7);
  return logits;
}

// A tie bug's failure: the largest logit appears twice or more.
bool largest_tied(const json& input) {
  const json& logits = input["logits"];
  if (logits.empty()) return false;
  double top = -std::numeric_limits<double>::infinity();
  for (const json& x : logits) top = std::max(top, x.get<double>());
  int count = 0;
  for (const json& x : logits) count += x.get<double>() == top;
  return count >= 2 && std::isfinite(top);
}

TEST(ShrinkSearch, TieFailureShrinksToTwoEqualLogits) {
  json input = {{"logits", random_logits(4096, 1)}, {"k", 40}};
  input["logits"][100] = 500.0;
  input["logits"][3000] = 500.0;
  ShrinkSearch search = shrink_input(logits_op(), input, largest_tied, Clock::now() + std::chrono::seconds(20));
  EXPECT_FALSE(search.out_of_time);
  ASSERT_TRUE(largest_tied(search.input));
  EXPECT_EQ(search.input["logits"].size(), 2u) << search.input.dump();
  EXPECT_EQ(search.input["logits"], json::array({0.0, 0.0})) << "ties kept, values simplest";
  EXPECT_EQ(search.input["k"], 0) << "k does not matter to this failure";
  EXPECT_EQ(size_change(logits_op(), input, search.input), "logits 4,096 -> 2 entries, k 40 -> 0");
}

TEST(ShrinkSearch, KeepsNegativeInfinityOnlyWhereTheFailureNeedsIt) {
  // Fails while some logit is -inf and some other is finite.
  auto needs_inf = [](const json& input) {
    bool inf = false, finite = false;
    for (const json& x : input["logits"]) (std::isinf(x.get<double>()) ? inf : finite) = true;
    return inf && finite;
  };
  json logits = random_logits(100, 2);
  for (std::size_t i = 0; i < 100; i += 10) logits[i] = -std::numeric_limits<double>::infinity();
  ShrinkSearch search = shrink_input(logits_op(), {{"logits", logits}, {"k", 3}}, needs_inf, Clock::now() + std::chrono::seconds(20));
  ASSERT_EQ(search.input["logits"].size(), 2u) << search.input.dump();
  EXPECT_TRUE(needs_inf(search.input));
  EXPECT_EQ(std::count_if(search.input["logits"].begin(), search.input["logits"].end(),
                          [](const json& x) { return x.get<double>() == 0.0; }),
            1) << "the finite logit became 0, the -inf stayed: " << search.input.dump();
}

TEST(ShrinkSearch, NeverMakesUpNonFiniteNumbers) {
  json input = {{"logits", random_logits(64, 3)}, {"k", 5}};
  int checked = 0;
  shrink_input(
      logits_op(), input,
      [&](const json& candidate) {
        ++checked;
        for (const json& x : candidate["logits"]) EXPECT_TRUE(std::isfinite(x.get<double>())) << candidate.dump();
        EXPECT_TRUE(candidate["k"].is_number_integer());
        return candidate["logits"].size() >= 3;
      },
      Clock::now() + std::chrono::seconds(20));
  EXPECT_GT(checked, 10);
}

// Attention heads: a GQA mapping bug (query head h reading KV head h %
// n_kv_heads instead of h / group) shows only with two KV heads and groups
// of two; each candidate must keep q, k and v consistent with the heads.
TEST(ShrinkSearch, AttentionHeadsShrinkToTheSmallestGroupedShape) {
  Operation op{"attention_steps",
               {{"n_heads", ValueType::kInteger}, {"n_kv_heads", ValueType::kInteger}, {"head_dim", ValueType::kInteger},
                {"capacity", ValueType::kInteger}, {"q", ValueType::kMatrix}, {"k", ValueType::kMatrix},
                {"v", ValueType::kMatrix}},
               ValueType::kMatrix};
  auto matrix = [](std::size_t rows, std::size_t cols, std::uint64_t seed) {
    SplitMix64 stream(seed);
    json out = json::array();
    for (std::size_t r = 0; r < rows; ++r) {
      json row = json::array();
      for (std::size_t c = 0; c < cols; ++c) row.push_back(stream.uniform01());
      out.push_back(row);
    }
    return out;
  };
  json input = {{"n_heads", 8}, {"n_kv_heads", 2}, {"head_dim", 4}, {"capacity", 12},
                {"q", matrix(12, 32, 1)}, {"k", matrix(12, 8, 2)}, {"v", matrix(12, 8, 3)}};
  int inconsistent = 0;
  auto consistent = [](const json& c) {
    std::int64_t h = c["n_heads"], g = c["n_kv_heads"], d = c["head_dim"];
    if (h < 1 || g < 1 || d < 1 || h % g || c["q"].empty() || c["q"].size() != c["k"].size() ||
        c["k"].size() != c["v"].size() || static_cast<std::int64_t>(c["q"].size()) > c["capacity"].get<std::int64_t>())
      return false;
    return static_cast<std::int64_t>(c["q"][0].size()) == h * d && static_cast<std::int64_t>(c["k"][0].size()) == g * d &&
           static_cast<std::int64_t>(c["v"][0].size()) == g * d;
  };
  ShrinkSearch search = shrink_input(
      op, input,
      [&](const json& c) {
        if (!consistent(c)) return ++inconsistent, false;  // the contract, as the reference would say
        return c["n_kv_heads"].get<int>() >= 2 && c["n_heads"].get<int>() / c["n_kv_heads"].get<int>() >= 2;
      },
      Clock::now() + std::chrono::seconds(20));
  EXPECT_EQ(search.input["n_heads"], 4);
  EXPECT_EQ(search.input["n_kv_heads"], 2);
  EXPECT_EQ(search.input["head_dim"], 1);
  EXPECT_EQ(search.input["q"].size(), 1u) << "one step";
  EXPECT_EQ(search.input["capacity"], 1);
  EXPECT_EQ(size_change(op, input, search.input),
            "n_heads 8 -> 4, head_dim 4 -> 1, capacity 12 -> 1, q 12x32 -> 1x4, k 12x8 -> 1x2, v 12x8 -> 1x2");
}

TEST(ShrinkSearch, StopsAtItsDeadline) {
  json input = {{"logits", random_logits(16384, 4)}, {"k", 40}};
  auto start = Clock::now();
  // Every candidate "fails" slowly: some 25 steps of 0.1 s each without
  // the deadline.
  ShrinkSearch search = shrink_input(
      logits_op(), input,
      [](const json&) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        return true;
      },
      start + std::chrono::seconds(1));
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_TRUE(search.out_of_time);
  EXPECT_GT(search.taken, 0);
  EXPECT_GT(search.input["logits"].size(), 1u) << "stopped before the end";
  EXPECT_LT(seconds, 4.0) << "the deadline was 1 s; one candidate more may run past it, not many";
}

// --- the judge on the fixture package

const fs::path& root() {
  static const testing::ScratchRoot scratch("shrink", "shrink_");
  return scratch.dir();
}

testing::JudgeRun judge(std::vector<std::string> args) {
  return testing::run_judge(args, {"JUDGE_ROOT=" + root().string(), "JUDGE_CACHE_DIR=" + (root() / "cache").string(),
                                   "JUDGE_WORKSPACE=" + (root() / "workspace").string()});
}

std::string solution(const std::string& name) { return (root() / "solutions/keep_top" / name).string(); }

json run_json(const std::string& file, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"run", "keep_top", "--solution", file, "--format", "json", "--no-cache"};
  args.insert(args.end(), extra.begin(), extra.end());
  testing::JudgeRun run = judge(args);
  EXPECT_LE(run.status, 1) << run.err;
  return json::parse(run.out);
}

const json* example_from(const json& result, const std::string& case_name) {
  if (!result.contains("shrunk")) return nullptr;
  for (const json& example : result["shrunk"])
    if (example["from_case"] == case_name) return &example;
  return nullptr;
}

// Whether `input` is one the problem allows (problem.yaml's statement).
bool within_contract(const json& input) {
  const json& logits = input.at("logits");
  bool finite = false;
  for (const json& x : logits) finite = finite || x.is_number();  // "-inf" is a string in the JSON
  std::int64_t k = input.at("k");
  return finite && k >= 1 && k <= static_cast<std::int64_t>(logits.size());
}

// How far a failure shrinks is the subject here, not speed: a budget that a
// busy CI machine cannot mistake for a deadline.
const std::vector<std::string> kGenerousBudget = {"--shrink-budget", "20"};

TEST(ShrinkJudge, TieBugShrinksToAHandfulOfEqualLogits) {
  json result = run_json(solution("wrong/ties_to_higher_id.hpp"), kGenerousBudget);
  const json* example = example_from(result, "wide_ties");
  ASSERT_TRUE(example) << result.dump(2);
  ASSERT_TRUE((*example)["shrunk"].get<bool>()) << example->dump(2);
  const json& input = (*example)["input"];
  EXPECT_LE(input["logits"].size(), 3u) << example->dump(2);
  EXPECT_TRUE(within_contract(input)) << input.dump();
  // The failure is a tie: the shrunk logits hold equal values.
  std::set<std::string> distinct;
  for (const json& x : input["logits"]) distinct.insert(x.dump());
  EXPECT_LT(distinct.size(), input["logits"].size()) << input.dump();
  EXPECT_NE((*example)["sizes"].get<std::string>().find("logits 131,072 -> "), std::string::npos);
  EXPECT_NE((*example)["details"].get<std::string>().find("expected"), std::string::npos);
  EXPECT_NE((*example)["details"].get<std::string>().find("got"), std::string::npos);
  EXPECT_EQ((*example)["failure_kind"], "value");

  // A correct solution written differently agrees with the reference on it:
  // the shrunk input is no boundary case that any other rounding would fail.
  testing::JudgeRun tried = judge({"try", "keep_top", "--solution", solution("accepted/sort_by_pairs.hpp"),
                                   "--input", flow_yaml(input)});
  EXPECT_EQ(tried.status, 0) << tried.out << tried.err;
  // And the mistake fails it, as the example says.
  tried = judge({"try", "keep_top", "--solution", solution("wrong/ties_to_higher_id.hpp"), "--input", flow_yaml(input)});
  EXPECT_EQ(tried.status, 1) << tried.out << tried.err;
}

TEST(ShrinkJudge, SupportFailureOfASamplerShrinks) {
  json result = run_json(solution("wrong/samples_every_token.hpp"), kGenerousBudget);
  const json* example = example_from(result, "wide_sampling");
  ASSERT_TRUE(example) << result.dump(2);
  ASSERT_TRUE((*example)["shrunk"].get<bool>()) << example->dump(2);
  EXPECT_EQ((*example)["failure_kind"], "zero_probability");
  EXPECT_LE((*example)["input"]["logits"].size(), 3u) << example->dump(2);
  EXPECT_TRUE(within_contract((*example)["input"]));
}

TEST(ShrinkJudge, CorrectSolutionsGetNoShrunkExample) {
  std::vector<std::string> correct = {solution("reference.hpp")};
  for (const auto& entry : fs::directory_iterator(root() / "solutions/keep_top/accepted"))
    correct.push_back(entry.path().string());
  for (const std::string& file : correct) {
    json result = run_json(file);
    EXPECT_EQ(result["verdict"], "accepted") << file;
    EXPECT_FALSE(result.contains("shrunk")) << file << ": " << result.dump(2);
  }
}

TEST(ShrinkJudge, TextReportNamesTheCaseAndTheSizes) {
  testing::JudgeRun run = judge({"run", "keep_top", "--solution", solution("wrong/ties_to_higher_id.hpp"), "--no-cache"});
  EXPECT_EQ(run.status, 1) << run.err;
  EXPECT_NE(run.out.find("shrunk from wide_ties, logits 131,072 -> "), std::string::npos) << run.out;
}

TEST(ShrinkJudge, NoShrinkTurnsItOff) {
  json result = run_json(solution("wrong/ties_to_higher_id.hpp"), {"--no-shrink"});
  EXPECT_EQ(result["verdict"], "wrong_answer");
  EXPECT_FALSE(result.contains("shrunk")) << result.dump(2);
}

TEST(ShrinkJudge, BudgetIsHonoured) {
  const double budget_s = 0.2;
  json result = run_json(solution("wrong/ties_to_higher_id.hpp"), {"--shrink-budget", std::to_string(budget_s)});
  ASSERT_TRUE(result.contains("shrunk")) << result.dump(2);
  double total_ms = 0;
  for (const json& example : result["shrunk"]) total_ms += example["ms"].get<double>();
  // One candidate may start just before the deadline, and the example is
  // checked again after it with the case's own time limit (2 s).
  EXPECT_LT(total_ms, budget_s * 1000 + 2 * 2000 + 1000) << result.dump(2);
  for (const json& example : result["shrunk"])
    if (example["shrunk"].get<bool>()) EXPECT_GT(example["candidates_tried"].get<int>(), 0);
}

TEST(ShrinkJudge, GradeShrinksOnlyWhenAsked) {
  fs::path dir = root() / "submissions";
  fs::create_directories(dir);
  fs::copy_file(solution("wrong/ties_to_higher_id.hpp"), dir / "ties.hpp", fs::copy_options::overwrite_existing);
  auto graded = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"grade", "keep_top", dir.string(), "--out", (root() / "grades").string()};
    args.insert(args.end(), extra.begin(), extra.end());
    testing::JudgeRun run = judge(args);
    EXPECT_EQ(run.status, 0) << run.out << run.err;
    return json::parse(std::ifstream(root() / "grades/results/ties.hpp.json"));
  };
  json plain = graded({});
  EXPECT_FALSE(plain.dump().find("\"shrunk\"") != std::string::npos) << plain.dump(2);
  json shrunk = graded({"--shrink"});
  EXPECT_NE(shrunk.dump().find("\"from_case\":\"wide_ties\""), std::string::npos) << shrunk.dump(2);
}

}  // namespace
}  // namespace judge
