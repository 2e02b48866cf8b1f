// `judge lab` through the judge binary, with the repository's problems and
// shipped models, a workspace of its own: the reference loop writes
// English-like text and agrees with itself; a known-wrong attention step or
// top-p filter plugged in is found at the first step it changes, and at the
// stage it changes; a correct solution written otherwise agrees; a part
// solved in the workspace is plugged in by itself; speculative decoding's
// measured acceptance is within sampling error of the predicted; the JSON
// holds every step's distributions; beam search's hypotheses are ranked,
// scored by the model, and a wrong search is named at its first differing
// hypothesis; bad settings are errors naming the option.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_judge.hpp"

namespace judge {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;
using testing::JudgeRun;

const fs::path& scratch() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("lab_test_" + std::to_string(::getpid()));
    fs::create_directories(d / "workspace");
    return d;
  }();
  return dir;
}

JudgeRun lab(std::vector<std::string> args, const fs::path& workspace = scratch() / "workspace") {
  args.insert(args.begin(), "lab");
  // The installation's cache of runners: the tests share the parts they build.
  return testing::run_judge(args, {"JUDGE_WORKSPACE=" + workspace.string(), "NO_COLOR=1"});
}

json lab_json(std::vector<std::string> args, int want_status, const fs::path& workspace = scratch() / "workspace") {
  args.insert(args.end(), {"--format", "json"});
  JudgeRun run = lab(args, workspace);
  EXPECT_EQ(run.status, want_status) << run.err << run.out.substr(0, 2000);
  return json::parse(run.out, nullptr, /*allow_exceptions=*/false);
}

std::string solution(const std::string& path) { return std::string(JUDGE_SOURCE_DIR) + "/solutions/" + path; }

// The share of the generated text made of letters, spaces and common
// punctuation, and of words found in a short list of English ones.
double letters_share(const std::string& text) {
  int letters = 0;
  for (char c : text)
    letters += std::isalpha(static_cast<unsigned char>(c)) || c == ' ' || c == '\n' || c == '.' || c == ',';
  return text.empty() ? 0 : static_cast<double>(letters) / text.size();
}

int english_words(const std::string& text) {
  static const std::vector<std::string> words = {" the ", " of ",  " to ", " is ",   " and ",  " a ",    " in ",
                                                 " file", " for ", " be ", " this ", " that ", " with ", " are "};
  int found = 0;
  for (const std::string& w : words) found += text.find(w) != std::string::npos;
  return found;
}

TEST(Lab, TheReferenceLoopWritesEnglishLikeTextAndKnowsItsCache) {
  JudgeRun run = lab({"--prompt", "the kernel", "--max-new-tokens", "200"});
  ASSERT_EQ(run.status, 0) << run.err << run.out;
  EXPECT_NE(run.out.find("repetition_penalty    reference (not started)"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("200 tokens in"), std::string::npos);
  json out = lab_json({"--prompt", "the kernel", "--max-new-tokens", "200"}, 0);
  const std::string generated = out["yours"]["generated"];
  std::printf("generated: %s\n", generated.c_str());
  EXPECT_EQ(generated.size(), 200u);
  EXPECT_GT(letters_share(generated), 0.85) << generated;
  EXPECT_GE(english_words(" " + generated + " "), 3) << generated;
  EXPECT_TRUE(out["reference"].is_null());  // nothing of the learner's: nothing to set beside
  EXPECT_GT(out["yours"]["tokens_per_second"].get<double>(), 0);
  const json& cache = out["yours"]["kv_cache"];
  const json& m = out["models"]["target"];
  EXPECT_EQ(cache["positions"], 10 + 200 - 1);
  EXPECT_EQ(cache["formula_bytes"].get<long>(),
            2L * m["layers"].get<long>() * m["kv_heads"].get<long>() * m["head_dim"].get<long>() * 209 * 8);
  EXPECT_EQ(cache["held_bytes"], cache["formula_bytes"]);
}

TEST(Lab, AWrongAttentionStepIsFoundAtTheModelStageOfTheFirstStep) {
  json out = lab_json(
      {"--mine", "kv_cache=" + solution("kv_cache/wrong/wrong_group_mapping.hpp"), "--max-new-tokens", "40"}, 1);
  ASSERT_TRUE(out["divergence"].is_object()) << out.dump();
  EXPECT_EQ(out["divergence"]["stage"], "model");
  EXPECT_EQ(out["divergence"]["step"], 0);
  EXPECT_GT(out["divergence"]["max_difference"].get<double>(), 1e-4);
  EXPECT_EQ(out["parts"][4]["problem"], "kv_cache");
  EXPECT_EQ(out["parts"][4]["whose"], "yours");
  EXPECT_TRUE(out["reference"].is_object());
}

TEST(Lab, AWrongTopPIsFoundAtTheFilterStage) {
  JudgeRun run = lab({"--mine", "top_p=" + solution("top_p/wrong/drops_crossing_token.hpp"), "--max-new-tokens", "30"});
  EXPECT_EQ(run.status, 1) << run.err;
  EXPECT_NE(run.out.find("first difference: at generated token 1"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("after the filter stage"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("the reference's run, same prompt and seed:"), std::string::npos);
}

TEST(Lab, APartThatThrowsStopsTheRunAndSaysWhoseCallItWas) {
  JudgeRun run = lab({"--mine", "kv_cache=" + std::string(JUDGE_TESTS_DIR) + "/fixtures/lab/attention_throws.hpp",
                      "--max-new-tokens", "10"});
  EXPECT_EQ(run.status, 1) << run.err;
  EXPECT_NE(run.out.find("stopped at token 0: your attention_step threw std::runtime_error: \\x1b[31mno cache here"),
            std::string::npos)
      << run.out;
  EXPECT_EQ(run.out.find('\x1b'), std::string::npos);  // the learner's escape never reaches the terminal
}

TEST(Lab, CorrectSolutionsWrittenOtherwiseAgreeAtEveryStep) {
  std::vector<std::string> args = {"--max-new-tokens", "40"};
  for (const char* problem : {"kv_cache", "top_p", "temperature", "repetition_penalty"}) {
    fs::path dir = fs::path(JUDGE_SOURCE_DIR) / "solutions" / problem / "accepted";
    ASSERT_TRUE(fs::is_directory(dir)) << dir;
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir)) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    args.push_back("--mine");
    args.push_back(std::string(problem) + "=" + files.front().string());
  }
  json out = lab_json(args, 0);
  EXPECT_TRUE(out["divergence"].is_null()) << out["divergence"].dump();
  EXPECT_EQ(out["steps_compared"], 40);
}

TEST(Lab, APartSolvedInTheWorkspaceIsPluggedInByItself) {
  const fs::path workspace = scratch() / "solved";
  fs::create_directories(workspace);
  fs::copy_file(solution("top_p/wrong/sorts_ascending.hpp"), workspace / "top_p.hpp",
                fs::copy_options::overwrite_existing);
  std::ofstream(workspace / ".progress.json") << R"({"top_p": {"solved": true, "attempts": []}})";
  json out = lab_json({"--max-new-tokens", "20"}, 1, workspace);
  EXPECT_EQ(out["parts"][3]["whose"], "yours");
  EXPECT_EQ(out["parts"][3]["why"], "solved in your workspace");
  EXPECT_EQ(out["divergence"]["stage"], "filter");
  json reference_only = lab_json({"--max-new-tokens", "20", "--reference-only"}, 0, workspace);
  EXPECT_EQ(reference_only["parts"][3]["whose"], "reference");
}

// Three runs of fixed seeds (so the test gives the same answer on every
// machine), pooled: the measured acceptance must be within 3 standard
// errors of the rate the two models' distributions predict.
TEST(Lab, SpeculativeAcceptanceIsWithinSamplingErrorOfThePredicted) {
  double accepted = 0, reached = 0, predicted = 0, variance = 0;
  for (const char* seed : {"7", "8", "9"}) {
    json out = lab_json({"--draft-tokens", "4", "--max-new-tokens", "250", "--prompt", "the", "--seed", seed}, 0);
    const json& s = out["yours"]["speculative"];
    ASSERT_TRUE(s.is_object()) << out.dump();
    EXPECT_EQ(s["emitted"], 250);
    EXPECT_EQ(out["yours"]["generated"].get<std::string>().size(), 250u);
    EXPECT_GT(s["target_passes_saved"].get<int>(), 0);
    EXPECT_EQ(s["as_predicted"], true);
    EXPECT_EQ(s["emitted"].get<int>() - s["rounds"].get<int>(), s["target_passes_saved"].get<int>());
    const double n = s["reached"];
    EXPECT_NEAR(s["accepted"].get<double>(), s["measured_acceptance"].get<double>() * n, 1e-6);
    accepted += s["accepted"].get<double>();
    reached += n;
    predicted += s["predicted_acceptance"].get<double>() * n;
    variance += std::pow(s["standard_error"].get<double>() * n, 2);
  }
  const double measured = accepted / reached, expected = predicted / reached, error = std::sqrt(variance) / reached;
  std::printf("acceptance over %.0f drafts: measured %.3f, predicted %.3f +- %.3f\n", reached, measured, expected,
              error);
  EXPECT_GT(error, 0);
  EXPECT_LT(std::abs(measured - expected), 3 * error);
}

TEST(Lab, AVerifyRuleThatKeepsTooManyDraftsIsMeasuredAgainstThePrediction) {
  json out = lab_json({"--draft-tokens", "4", "--max-new-tokens", "200", "--mine",
                       "speculative_decoding=" + solution("speculative_decoding/wrong/accepts_every_draft.hpp")},
                      1);
  const json& s = out["yours"]["speculative"];
  EXPECT_EQ(s["as_predicted"], false) << s.dump();
  EXPECT_EQ(s["measured_acceptance"], 1.0);
  EXPECT_EQ(out["parts"][5]["whose"], "yours");
}

TEST(Lab, JsonStepsHoldEachStagesDistribution) {
  json out = lab_json({"--max-new-tokens", "5", "--steps", "--greedy"}, 0);
  ASSERT_EQ(out["yours"]["steps"].size(), 5u);
  for (const json& step : out["yours"]["steps"]) {
    for (const char* stage : {"model", "penalty", "temperature", "filter"}) {
      ASSERT_EQ(step[stage].size(), 96u) << stage;
      double sum = 0;
      for (double p : step[stage]) sum += p;
      EXPECT_NEAR(sum, 1.0, 1e-9) << stage;
    }
    // Greedy takes the filter's most probable token.
    const std::vector<double> filtered = step["filter"];
    EXPECT_EQ(step["token"], std::max_element(filtered.begin(), filtered.end()) - filtered.begin());
  }
}

TEST(Lab, ASweepRunsTheSamePromptAtEachValueAndTheCacheCostIsMeasured) {
  json out = lab_json({"--max-new-tokens", "40", "--sweep", "temperature=0.2,2", "--cache-cost"}, 0);
  ASSERT_EQ(out["sweep"]["runs"].size(), 2u) << out.dump();
  EXPECT_EQ(out["sweep"]["knob"], "temperature");
  const json& cold = out["sweep"]["runs"][0];
  const json& hot = out["sweep"]["runs"][1];
  EXPECT_EQ(cold["value"], 0.2);
  EXPECT_EQ(cold["generated"].get<std::string>().size(), 40u);
  // A higher temperature flattens the distribution each token is drawn from.
  EXPECT_LT(cold["mean_entropy"].get<double>(), hot["mean_entropy"].get<double>());
  ASSERT_EQ(out["cache_cost"].size(), 5u);
  int last = -1;
  for (const json& row : out["cache_cost"]) {
    EXPECT_GT(row["position"].get<int>(), last);
    last = row["position"];
    EXPECT_GT(row["with_cache_ms"].get<double>(), 0);
    EXPECT_GT(row["without_cache_ms"].get<double>(), 0);
  }
  JudgeRun bad = lab({"--sweep", "top_p=0.5,1.5"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("--sweep: '1.5' is not a top_p"), std::string::npos) << bad.err;
}

TEST(Lab, BadSettingsAreErrorsNamingTheOption) {
  JudgeRun too_long = lab({"--max-new-tokens", "4000"});
  EXPECT_EQ(too_long.status, 2);
  EXPECT_NE(too_long.err.find("--max-new-tokens"), std::string::npos) << too_long.err;
  JudgeRun mine = lab({"--mine", "top_q=x.hpp"});
  EXPECT_EQ(mine.status, 2);
  EXPECT_NE(mine.err.find("--mine: unknown part of the lab 'top_q' (did you mean"), std::string::npos) << mine.err;
  JudgeRun malformed = lab({"--mine", "top_p"});
  EXPECT_EQ(malformed.status, 2);
  EXPECT_NE(malformed.err.find("PROBLEM=FILE"), std::string::npos) << malformed.err;
  JudgeRun prompt = lab({"--prompt", "\xc3\xa9\xc3\xa9"});
  EXPECT_EQ(prompt.status, 2);
  EXPECT_NE(prompt.err.find("--prompt"), std::string::npos) << prompt.err;
}

TEST(Lab, BeamSettingsThatDoNotGoTogetherAreErrors) {
  JudgeRun drafts = lab({"--beam", "4", "--draft-tokens", "2"});
  EXPECT_EQ(drafts.status, 2);
  EXPECT_NE(drafts.err.find("--draft-tokens"), std::string::npos) << drafts.err;
  JudgeRun other_part = lab({"--beam", "2", "--mine", "top_p=" + solution("top_p/reference.hpp")});
  EXPECT_EQ(other_part.status, 2);
  EXPECT_NE(other_part.err.find("with --beam the lab runs beam_search alone"), std::string::npos) << other_part.err;
  JudgeRun no_beam = lab({"--mine", "beam_search=" + solution("beam_search/reference.hpp")});
  EXPECT_EQ(no_beam.status, 2);
  EXPECT_NE(no_beam.err.find("only with --beam N"), std::string::npos) << no_beam.err;
  JudgeRun penalty = lab({"--length-penalty", "0.5"});
  EXPECT_EQ(penalty.status, 2);
  EXPECT_NE(penalty.err.find("--beam"), std::string::npos) << penalty.err;
  JudgeRun wide = lab({"--beam", "17"});
  EXPECT_EQ(wide.status, 2);
}

// The reference's beam on the real model: ranked by score, every log_prob
// the sum the judge's own copy of the model gives, every score its
// log_prob over its length, a finished hypothesis ending at the newline.
TEST(Lab, TheReferenceBeamIsRankedAndScoredByTheModel) {
  json out = lab_json({"--beam", "4", "--max-new-tokens", "60"}, 0);
  const json& beam = out["beam"];
  ASSERT_TRUE(beam.is_object()) << out.dump();
  EXPECT_TRUE(out["yours"].is_null());
  const json& hypotheses = beam["yours"]["hypotheses"];
  ASSERT_EQ(hypotheses.size(), 4u) << beam.dump();
  EXPECT_GT(beam["yours"]["model_calls"].get<long>(), 4);
  double previous = 0;
  for (const json& h : hypotheses) {
    const std::string text = h["text"];
    const double log_prob = h["log_prob"], score = h["score"];
    std::printf("beam: %.4f %s\n", score, text.c_str());
    EXPECT_LE(score, previous);
    previous = score;
    EXPECT_NEAR(log_prob, h["model_log_prob"].get<double>(), 1e-9);
    EXPECT_NEAR(score, log_prob / static_cast<double>(text.size()), 1e-12);
    EXPECT_EQ(h["finished"].get<bool>(), text.back() == '\n');
    EXPECT_GT(letters_share(text), 0.85) << text;
  }
  EXPECT_TRUE(beam["difference"].is_null());
  EXPECT_TRUE(beam["reference"].is_null());  // every part the reference's: nothing to set beside
}

// Beam width 1 follows the most probable token, as the judge's own greedy
// path does, while neither reaches the newline: the runner's model (its
// prefix cache inside the sandbox) and the judge's agree to the last bit.
TEST(Lab, BeamWidthOneIsTheGreedyPathOfTheJudgesOwnModel) {
  json out = lab_json({"--beam", "1", "--max-new-tokens", "30"}, 0);
  const json& greedy = out["beam"]["greedy"];
  ASSERT_FALSE(greedy["finished"].get<bool>()) << greedy.dump();
  const json& best = out["beam"]["yours"]["hypotheses"][0];
  EXPECT_EQ(best["text"], greedy["text"]);
  EXPECT_EQ(best["log_prob"].get<double>(), greedy["log_prob"].get<double>());
  EXPECT_EQ(out["beam"]["yours"]["model_calls"], 30);
}

TEST(Lab, WrongBeamSearchesAreNamedAtTheirFirstDifferingHypothesis) {
  for (const char* wrong : {"stops_at_first_finished", "ranks_finished_by_log_prob", "finished_take_beam_slots"}) {
    json out = lab_json({"--beam", "4", "--max-new-tokens", "60", "--mine",
                         "beam_search=" + solution("beam_search/wrong/" + std::string(wrong) + ".hpp")},
                        1);
    const json& beam = out["beam"];
    ASSERT_TRUE(beam["difference"].is_object()) << wrong << beam.dump();
    EXPECT_NE(beam["difference"]["what"].get<std::string>().find("the reference's"), std::string::npos) << wrong;
    EXPECT_TRUE(beam["reference"].is_object());
    EXPECT_EQ(out["parts"][0]["whose"], "yours");
  }
  JudgeRun score = lab({"--beam", "4", "--max-new-tokens", "60", "--mine",
                        "beam_search=" + solution("beam_search/wrong/penalty_counts_prompt.hpp")});
  EXPECT_EQ(score.status, 1);
  EXPECT_NE(score.out.find("first difference, hypothesis 1:"), std::string::npos) << score.out;
  EXPECT_NE(score.out.find("says score"), std::string::npos) << score.out;
}

TEST(Lab, AcceptedBeamSearchesWrittenOtherwiseAreTheReferences) {
  const fs::path dir = fs::path(JUDGE_SOURCE_DIR) / "solutions" / "beam_search" / "accepted";
  ASSERT_TRUE(fs::is_directory(dir)) << dir;
  int tried = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    JudgeRun run = lab({"--beam", "3", "--max-new-tokens", "40", "--mine", "beam_search=" + entry.path().string()});
    EXPECT_EQ(run.status, 0) << entry.path() << run.out << run.err;
    EXPECT_NE(run.out.find("your beam is the reference's"), std::string::npos) << entry.path() << run.out;
    ++tried;
  }
  EXPECT_GE(tried, 2);
}

TEST(Lab, ABeamSearchThatMisstatesOrMisasksIsNamed) {
  const std::string fixtures = std::string(JUDGE_TESTS_DIR) + "/fixtures/lab/";
  json out = lab_json(
      {"--beam", "2", "--max-new-tokens", "20", "--mine", "beam_search=" + fixtures + "beam_overstates.hpp"}, 1);
  ASSERT_TRUE(out["beam"]["difference"].is_object()) << out.dump();
  EXPECT_EQ(out["beam"]["difference"]["rank"], 1);
  EXPECT_NE(out["beam"]["difference"]["what"].get<std::string>().find("the model gives its tokens"), std::string::npos);
  JudgeRun asks =
      lab({"--beam", "2", "--max-new-tokens", "20", "--mine", "beam_search=" + fixtures + "beam_asks_outside.hpp"});
  EXPECT_EQ(asks.status, 1);
  EXPECT_NE(asks.out.find("your beam_search threw std::invalid_argument: token 100000 is outside the lab's vocabulary"),
            std::string::npos)
      << asks.out;
  // The harness's own error type, thrown by the learner's code: the part's
  // failure (exit status 1), not the judge's (2).
  JudgeRun claims = lab(
      {"--beam", "2", "--max-new-tokens", "10", "--mine", "beam_search=" + fixtures + "beam_claims_harness_error.hpp"});
  EXPECT_EQ(claims.status, 1) << claims.err;
  EXPECT_NE(claims.out.find("stopped your beam_search said the harness could not run it: internal judge failure"),
            std::string::npos)
      << claims.out;
  EXPECT_EQ(claims.out.find("first difference"), std::string::npos) << claims.out;
}

}  // namespace
}  // namespace judge
