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
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "judging/shrink_candidates.hpp"
#include "judging/shrink_search.hpp"
#include "package/typed_values.hpp"
#include "run_judge.hpp"
#include "scratch_root.hpp"

namespace judge {
namespace {
namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

Operation logits_op() {
  return Operation{"probs", {{"logits", ValueType::kDoubles}, {"k", ValueType::kInteger}}, ValueType::kDoubles};
}

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
  ShrinkSearch search =
      shrink_input(logits_op(), {{"logits", logits}, {"k", 3}}, needs_inf, Clock::now() + std::chrono::seconds(20));
  ASSERT_EQ(search.input["logits"].size(), 2u) << search.input.dump();
  EXPECT_TRUE(needs_inf(search.input));
  EXPECT_EQ(std::count_if(search.input["logits"].begin(), search.input["logits"].end(),
                          [](const json& x) { return x.get<double>() == 0.0; }),
            1)
      << "the finite logit became 0, the -inf stayed: " << search.input.dump();
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
json random_matrix(std::size_t rows, std::size_t cols, std::uint64_t seed) {
  SplitMix64 stream(seed);
  json out = json::array();
  for (std::size_t r = 0; r < rows; ++r) {
    json row = json::array();
    for (std::size_t c = 0; c < cols; ++c) row.push_back(stream.uniform01());
    out.push_back(row);
  }
  return out;
}

TEST(ShrinkSearch, AttentionHeadsShrinkToTheSmallestGroupedShape) {
  auto matrix = random_matrix;
  Operation op{"attention_steps",
               {{"n_heads", ValueType::kInteger},
                {"n_kv_heads", ValueType::kInteger},
                {"head_dim", ValueType::kInteger},
                {"capacity", ValueType::kInteger},
                {"q", ValueType::kMatrix},
                {"k", ValueType::kMatrix},
                {"v", ValueType::kMatrix}},
               ValueType::kMatrix};
  op.head_axes.push_back(HeadAxis{"heads", "n_heads", "n_kv_heads", "head_dim", {"q"}, {"k", "v"}, {}});
  json input = {{"n_heads", 8},           {"n_kv_heads", 2},       {"head_dim", 4},        {"capacity", 12},
                {"q", matrix(12, 32, 1)}, {"k", matrix(12, 8, 2)}, {"v", matrix(12, 8, 3)}};
  int inconsistent = 0;
  auto consistent = [](const json& c) {
    std::int64_t h = c["n_heads"], g = c["n_kv_heads"], d = c["head_dim"];
    if (h < 1 || g < 1 || d < 1 || h % g || c["q"].empty() || c["q"].size() != c["k"].size() ||
        c["k"].size() != c["v"].size() || static_cast<std::int64_t>(c["q"].size()) > c["capacity"].get<std::int64_t>())
      return false;
    return static_cast<std::int64_t>(c["q"][0].size()) == h * d &&
           static_cast<std::int64_t>(c["k"][0].size()) == g * d && static_cast<std::int64_t>(c["v"][0].size()) == g * d;
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

// Heads are what an op declares (HeadAxis), under any names: the judge
// knows no problem's inputs. The same layout as attention's, named
// otherwise, shrinks alike when declared; undeclared, no candidate keeps
// it consistent, and the head counts stay.
TEST(ShrinkSearch, HeadsAreWhatTheOpDeclaresUnderAnyNames) {
  Operation op{"mix",
               {{"lanes", ValueType::kInteger},
                {"teams", ValueType::kInteger},
                {"span", ValueType::kInteger},
                {"a", ValueType::kMatrix},
                {"b", ValueType::kMatrix},
                {"tail", ValueType::kDoubles},
                {"tail_lanes", ValueType::kInteger}},
               ValueType::kAny};
  const json input = {{"lanes", 6},
                      {"teams", 3},
                      {"span", 2},
                      {"a", random_matrix(2, 12, 4)},
                      {"b", random_matrix(2, 6, 5)},
                      {"tail", random_matrix(1, 12, 6)[0]},
                      {"tail_lanes", 6}};
  auto consistent = [](const json& c) {
    std::int64_t lanes = c["lanes"], teams = c["teams"], span = c["span"];
    return lanes >= 1 && teams >= 1 && span >= 1 && lanes % teams == 0 && !c["a"].empty() &&
           static_cast<std::int64_t>(c["a"][0].size()) == lanes * span &&
           static_cast<std::int64_t>(c["b"][0].size()) == teams * span &&
           static_cast<std::int64_t>(c["tail"].size()) == lanes * span && c["tail_lanes"] == c["lanes"];
  };
  auto fails = [&](const json& c) { return consistent(c) && c["teams"].get<int>() >= 2; };

  ShrinkSearch undeclared = shrink_input(op, input, fails, Clock::now() + std::chrono::seconds(20));
  EXPECT_EQ(undeclared.input["lanes"], 6) << "no head axis declared: no consistent smaller layout";

  op.head_axes.push_back(HeadAxis{"lanes", "lanes", "teams", "span", {"a", "tail"}, {"b"}, {"tail_lanes"}});
  ShrinkSearch declared = shrink_input(op, input, fails, Clock::now() + std::chrono::seconds(20));
  EXPECT_TRUE(consistent(declared.input)) << declared.input.dump();
  EXPECT_EQ(declared.input["teams"], 2);
  EXPECT_EQ(declared.input["lanes"], 2) << "one lane per team";
  EXPECT_EQ(declared.input["span"], 1);
  EXPECT_EQ(declared.input["tail"].size(), 2u);
  EXPECT_EQ(declared.input["tail_lanes"], 2);
}

// A toy beam search over a table model ({vocab, default, rows: [{context,
// probs}]}, the longest matching context suffix wins), with or without the
// EOS rank rule (an EOS candidate finishes only if its rank is below the
// beam width): the two disagree exactly where that rule matters.
json beam_answer(const json& in, bool rank_rule) {
  struct Hyp {
    std::vector<int> tokens;
    double log_prob;
  };
  const json& model = in["model"];
  auto probs = [&](const std::vector<int>& seq) {
    const json* best = &model["default"];
    std::size_t length = 0;
    bool found = false;
    for (const json& row : model["rows"]) {
      std::vector<int> context = row["context"].get<std::vector<int>>();
      if (context.size() > seq.size() || (found && context.size() <= length)) continue;
      if (std::equal(context.begin(), context.end(), seq.end() - static_cast<long>(context.size())))
        best = &row["probs"], length = context.size(), found = true;
    }
    return best->get<std::vector<double>>();
  };
  const int width = in["beam_width"], eos = in["eos_id"];
  std::vector<Hyp> live = {{{}, 0.0}}, done;
  for (int step = 0; step < in["max_new_tokens"].get<int>() && !live.empty(); ++step) {
    std::vector<Hyp> all;
    for (const Hyp& h : live) {
      std::vector<int> seq = in["prompt"].get<std::vector<int>>();
      seq.insert(seq.end(), h.tokens.begin(), h.tokens.end());
      std::vector<double> p = probs(seq);
      for (std::size_t t = 0; t < p.size(); ++t) {
        if (p[t] <= 0) continue;
        Hyp next = h;
        next.tokens.push_back(static_cast<int>(t));
        next.log_prob += std::log(p[t]);
        all.push_back(next);
      }
    }
    std::sort(all.begin(), all.end(), [](const Hyp& a, const Hyp& b) {
      return a.log_prob != b.log_prob ? a.log_prob > b.log_prob : a.tokens < b.tokens;
    });
    live.clear();
    for (std::size_t rank = 0; rank < all.size() && static_cast<int>(live.size()) < width; ++rank) {
      if (all[rank].tokens.back() != eos)
        live.push_back(all[rank]);
      else if (!rank_rule || static_cast<int>(rank) < width)
        done.push_back(all[rank]);
    }
  }
  done.insert(done.end(), live.begin(), live.end());
  std::sort(done.begin(), done.end(), [](const Hyp& a, const Hyp& b) {
    return a.log_prob != b.log_prob ? a.log_prob > b.log_prob : a.tokens < b.tokens;
  });
  json out = json::array();
  for (int i = 0; i < width && i < static_cast<int>(done.size()); ++i) out.push_back(done[i].tokens);
  return out;
}

// What the beam search harness accepts: every row vocab probabilities in
// [0, 1], every token id in [0, vocab), positive width and steps.
bool valid_beam_case(const json& in) {
  const json& model = in["model"];
  if (!model["vocab"].is_number_integer() || in["beam_width"] < 1 || in["max_new_tokens"] < 1) return false;
  const std::int64_t vocab = model["vocab"];
  auto row_ok = [&](const json& row) {
    if (!row.is_array() || static_cast<std::int64_t>(row.size()) != vocab) return false;
    return std::all_of(row.begin(), row.end(), [](const json& p) { return p.is_number() && p >= 0 && p <= 1; });
  };
  auto ids_ok = [&](const json& ids) {
    return ids.is_array() && std::all_of(ids.begin(), ids.end(), [&](const json& t) { return t >= 0 && t < vocab; });
  };
  if (!row_ok(model["default"]) || !ids_ok(in["prompt"]) || in["eos_id"] < 0 || in["eos_id"] >= vocab) return false;
  for (const json& row : model["rows"])
    if (!row.is_object() || !row_ok(row["probs"]) || !ids_ok(row["context"])) return false;
  return true;
}

// beam_search's declaration, its vocabulary axis as a problem.yaml gives it.
Operation beam_op() {
  Operation op{"beam_search",
               {{"model", ValueType::kAny},
                {"prompt", ValueType::kInts},
                {"beam_width", ValueType::kInteger},
                {"max_new_tokens", ValueType::kInteger},
                {"eos_id", ValueType::kInteger},
                {"length_penalty", ValueType::kNumber}},
               ValueType::kAny};
  op.axes.push_back(SharedAxis{"vocabulary",
                               "model.vocab",
                               {"model.default", "model.rows[].probs", "model.bias"},
                               {"prompt", "model.rows[].context", "eos_id"},
                               false});
  return op;
}

// The EOS rank rule's failure needs an EOS candidate ranked at the beam
// width after a better one finished, and a longer hypothesis it then beats:
// three steps (at two, every hypothesis in the final pool has two tokens and
// the extra one ranks below beam_width of them), a beam of two, and three
// tokens (EOS and two words, so that two live parents exist at step 2).
TEST(ShrinkSearch, VocabularyOfABeamModelShrinksForTheEosRankRule) {
  json input = json::parse(R"({
    "model": {"kind": "table", "vocab": 6, "default": [0.2, 0.2, 0.2, 0.2, 0.2, 0.0],
              "rows": [{"context": [5], "probs": [0.05, 0.45, 0.35, 0.05, 0.1, 0.0]},
                       {"context": [1], "probs": [0.3, 0.1, 0.05, 0.45, 0.1, 0.0]},
                       {"context": [2], "probs": [0.6, 0.05, 0.05, 0.2, 0.1, 0.0]},
                       {"context": [3], "probs": [0.3, 0.26, 0.2, 0.14, 0.1, 0.0]},
                       {"context": [4], "probs": [0.25, 0.25, 0.25, 0.25, 0.0, 0.0]}]},
    "prompt": [5], "beam_width": 2, "max_new_tokens": 4, "eos_id": 0, "length_penalty": 0.0})");
  auto fails = [](const json& c) { return valid_beam_case(c) && beam_answer(c, true) != beam_answer(c, false); };
  ASSERT_TRUE(fails(input)) << "the starting case shows the mistake";
  // Only a cut of the whole vocabulary at once (every row, the ids
  // renumbered) can reach a smaller vocab that the harness accepts.
  ShrinkSearch search = shrink_input(beam_op(), input, fails, Clock::now() + std::chrono::seconds(20));
  EXPECT_FALSE(search.out_of_time);
  ASSERT_TRUE(fails(search.input));
  EXPECT_EQ(search.input["model"]["vocab"], 3) << search.input.dump();
  EXPECT_EQ(search.input["max_new_tokens"], 3) << search.input.dump();
  EXPECT_EQ(search.input["beam_width"], 2) << search.input.dump();
  EXPECT_EQ(search.input["eos_id"], 0);
  EXPECT_EQ(size_change(beam_op(), input, search.input).rfind("vocabulary 6 -> 3, ", 0), 0u)
      << size_change(beam_op(), input, search.input);
}

// Every candidate of a smaller vocabulary drops (or merges) a token in every
// row at once and renumbers the ids above it, in the prompt, the contexts
// and eos_id alike; a token an id names is never simply dropped.
TEST(ShrinkSearch, VocabularyCutsKeepTheModelConsistent) {
  json input = json::parse(R"({
    "model": {"kind": "table", "vocab": 4, "default": [0.25, 0.25, 0.25, 0.25],
              "rows": [{"context": [3], "probs": [0.1, 0.2, 0.3, 0.4]}]},
    "prompt": [3], "beam_width": 2, "max_new_tokens": 2, "eos_id": 2, "length_penalty": 0.0})");
  std::vector<json> smaller;
  for_each_candidate(beam_op(), input, [&](const json& c) {
    if (c["model"]["vocab"] == 3 && c["model"]["default"].size() == 3) smaller.push_back(c);
    return false;
  });
  auto with = [](json c, const json& probs, const json& default_row, int id, int eos) {
    c["model"]["vocab"] = 3;
    c["model"]["default"] = default_row;
    c["model"]["rows"][0]["probs"] = probs;
    c["model"]["rows"][0]["context"] = json::array({id});
    c["prompt"] = json::array({id});
    c["eos_id"] = eos;
    return c;
  };
  const json dropped_1 = with(input, {0.1, 0.3, 0.4}, {0.25, 0.25, 0.25}, 2, 1);
  const json merged_1_into_0 = with(input, {0.3, 0.3, 0.4}, {0.5, 0.25, 0.25}, 2, 1);
  const json merged_3_into_2 = with(input, {0.1, 0.2, 0.7}, {0.25, 0.25, 0.5}, 2, 2);
  for (const json& expected : {dropped_1, merged_1_into_0, merged_3_into_2})
    EXPECT_NE(std::find(smaller.begin(), smaller.end(), expected), smaller.end()) << expected.dump();
  for (const json& c : smaller) {
    EXPECT_TRUE(valid_beam_case(c)) << c.dump();
    EXPECT_EQ(c["prompt"], c["model"]["rows"][0]["context"]) << "the same token renumbered alike: " << c.dump();
  }
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

std::string solution(const std::string& name, const std::string& problem = "keep_top") {
  return (root() / "solutions" / problem / name).string();
}

json run_json(const std::string& file, std::vector<std::string> extra = {}, const std::string& problem = "keep_top") {
  std::vector<std::string> args = {"run", problem, "--solution", file, "--format", "json", "--no-cache"};
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
  testing::JudgeRun tried =
      judge({"try", "keep_top", "--solution", solution("accepted/sort_by_pairs.hpp"), "--input", flow_yaml(input)});
  EXPECT_EQ(tried.status, 0) << tried.out << tried.err;
  // And the mistake fails it, as the example says.
  tried =
      judge({"try", "keep_top", "--solution", solution("wrong/ties_to_higher_id.hpp"), "--input", flow_yaml(input)});
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

// A speculative round's fixed answer (the same for every seed) fails on a
// round of K = 3 drafts over 5 tokens; the shrunk round has fewer of both,
// is still a valid round (K x V drafts, (K + 1) x V targets, every row a
// distribution, every draft possible under its draft row) and still has an
// answer that no draw can change.
TEST(ShrinkJudge, SpeculativeRoundShrinksInKAndV) {
  json result = run_json(solution("wrong/resamples_from_target.hpp", "verify_round"), kGenerousBudget, "verify_round");
  const json* example = example_from(result, "rejected_third_draft");
  ASSERT_TRUE(example) << result.dump(2);
  ASSERT_TRUE((*example)["shrunk"].get<bool>()) << example->dump(2);
  EXPECT_EQ((*example)["failure_kind"], "value");
  const json& input = (*example)["input"];
  const std::size_t k = input["draft_tokens"].size();
  ASSERT_FALSE(input["target_probs"].empty()) << input.dump();
  const std::size_t v = input["target_probs"][0].size();
  EXPECT_LT(k, 3u) << input.dump();
  EXPECT_LT(v, 5u) << input.dump();
  ASSERT_EQ(input["draft_probs"].size(), k) << input.dump();
  ASSERT_EQ(input["target_probs"].size(), k + 1) << input.dump();
  for (const char* key : {"draft_probs", "target_probs"})
    for (const json& row : input[key]) {
      ASSERT_EQ(row.size(), v) << input.dump();
      double sum = 0;
      for (const json& p : row) {
        EXPECT_GE(p.get<double>(), 0.0) << input.dump();
        sum += p.get<double>();
      }
      EXPECT_NEAR(sum, 1.0, 1e-9) << key << " " << row.dump();
    }
  for (std::size_t i = 0; i < k; ++i) {
    const std::int64_t x = input["draft_tokens"][i];
    ASSERT_TRUE(x >= 0 && x < static_cast<std::int64_t>(v)) << input.dump();
    EXPECT_GT(input["draft_probs"][i][x].get<double>(), 0.0) << "draft " << i << " could not have been drawn";
  }
  const std::string sizes = (*example)["sizes"];
  EXPECT_NE(sizes.find("drafts 3 -> "), std::string::npos) << sizes;
  EXPECT_NE(sizes.find("vocabulary 5 -> "), std::string::npos) << sizes;

  // Its answer really does not depend on the draws: over `judge try`'s
  // thousands of seeds, the reference and a correct solution written
  // differently each give one answer, the same one; the mistake does not.
  auto tally = [&](const std::string& file) {
    testing::JudgeRun tried =
        judge({"try", "verify_round", "--solution", file, "--input", flow_yaml(input), "--format", "json"});
    EXPECT_LE(tried.status, 1) << tried.err;
    json rows = json::parse(tried.out).at("tallies").at(0).at("rows");
    std::map<std::string, std::int64_t> seen;
    for (const json& row : rows)
      if (row["yours"].get<std::int64_t>() > 0) seen[row["label"]] = row["yours"];
    return seen;
  };
  auto reference = tally(solution("reference.hpp", "verify_round"));
  EXPECT_EQ(reference.size(), 1u) << "the reference's answer varies with the seed: " << input.dump();
  for (const auto& entry : fs::directory_iterator(root() / "solutions/verify_round/accepted"))
    EXPECT_EQ(tally(entry.path().string()), reference) << entry.path();
  EXPECT_NE(tally(solution("wrong/resamples_from_target.hpp", "verify_round")), reference);
}

TEST(ShrinkJudge, CorrectSolutionsGetNoShrunkExample) {
  for (const auto& problem : fs::directory_iterator(root() / "solutions")) {
    std::string slug = problem.path().filename().string();
    std::vector<std::string> correct = {solution("reference.hpp", slug)};
    for (const auto& entry : fs::directory_iterator(problem.path() / "accepted"))
      correct.push_back(entry.path().string());
    for (const std::string& file : correct) {
      json result = run_json(file, {}, slug);
      EXPECT_EQ(result["verdict"], "accepted") << file;
      EXPECT_FALSE(result.contains("shrunk")) << file << ": " << result.dump(2);
    }
  }
}

TEST(ShrinkJudge, TextReportNamesTheCaseAndTheSizes) {
  testing::JudgeRun run =
      judge({"run", "keep_top", "--solution", solution("wrong/ties_to_higher_id.hpp"), "--no-cache"});
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
  const std::pair<std::string, std::string> failing[] = {{"keep_top", "wrong/ties_to_higher_id.hpp"},
                                                         {"verify_round", "wrong/resamples_from_target.hpp"}};
  for (const auto& [problem, file] : failing) {
    json result = run_json(solution(file, problem), {"--shrink-budget", std::to_string(budget_s)}, problem);
    ASSERT_TRUE(result.contains("shrunk")) << result.dump(2);
    double total_ms = 0;
    for (const json& example : result["shrunk"]) total_ms += example["ms"].get<double>();
    // One candidate may start just before the deadline, and the example is
    // checked again after it with the case's own time limit (2 s).
    EXPECT_LT(total_ms, budget_s * 1000 + 2 * 2000 + 1000) << result.dump(2);
    for (const json& example : result["shrunk"])
      if (example["shrunk"].get<bool>()) EXPECT_GT(example["candidates_tried"].get<int>(), 0);
  }
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
