#include "lab/lab.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "judging/judging.hpp"
#include "judging/problem_catalog.hpp"
#include "package/result_codec.hpp"
#include "practice/workspace.hpp"
#include "util/errors.hpp"
#include "util/installation.hpp"
#include "util/text.hpp"

namespace judge::lab {
namespace {
using nlohmann::json;

PartOwner owner_for(const Paths& paths, const std::string& problem, const LabRequest& request) {
  PartOwner owner{problem, false, "the reference", ""};
  if (auto given = request.files.find(problem); given != request.files.end()) {
    if (!std::filesystem::is_regular_file(given->second))
      throw SpecError{fmt::format("--mine {}={}: no such file", problem, given->second)};
    return PartOwner{problem, true, given->second, "--mine"};
  }
  if (request.reference_only) {
    owner.why = "--reference-only";
    return owner;
  }
  const Progress progress = progress_of(paths, problem);
  if (progress == Progress::kSolved && std::filesystem::is_regular_file(workspace_file(paths, problem)))
    return PartOwner{problem, true, display_path(workspace_file(paths, problem)), "solved in your workspace"};
  owner.why = progress == Progress::kNotStarted ? "not started" : "not solved yet";
  return owner;
}

struct Binaries {
  std::map<std::string, std::string> yours, reference;
};

// Builds every part's runner the way judging does (sandboxed, cached).
Binaries build_parts(const Paths& paths, const std::vector<PartOwner>& owners, const LabRequest& request,
                     std::string* compile_error) {
  const ProblemCatalog catalog(paths);
  Binaries binaries;
  for (const PartOwner& owner : owners) {
    const Problem problem = catalog.load(owner.problem);
    JudgeRequest build;
    build.solution_file = owner.learners ? (request.files.count(owner.problem) ? request.files.at(owner.problem)
                                                                               : workspace_file(paths, owner.problem))
                                         : problem.package.reference;
    build.display_name = owner.file;
    if (request.on_progress)
      build.on_progress = [&request, &owner](const std::string& what) {
        request.on_progress(fmt::format("{} {}", what, owner.problem));
      };
    BuiltRunners built = build_runners(paths, problem, build);
    if (!built.learner.ok) {
      *compile_error =
          fmt::format("{} ({}) does not compile:\n{}", owner.problem, owner.file, built.learner.diagnostics);
      return binaries;
    }
    binaries.yours[owner.problem] = built.learner.binary;
    binaries.reference[owner.problem] = built.reference.binary;
  }
  return binaries;
}

double mean_entropy(const LabRun& run) {
  double total = 0;
  for (const LabStep& step : run.steps)
    for (double p : step.stages.filtered)
      if (p > 0) total -= p * std::log(p);
  return run.steps.empty() ? 0 : total / static_cast<double>(run.steps.size());
}

std::vector<SweepRun> sweep_runs(const Model& model, Parts& parts, const LabRequest& request) {
  std::vector<SweepRun> runs;
  for (double value : request.sweep->values) {
    LabSettings settings = request.settings;
    settings.draft_tokens = 0;
    if (request.sweep->knob == "temperature")
      settings.temperature = value;
    else
      settings.filter = Filter{Filter::Kind::kTopP, 0, value};
    SweepRun run{value, generate(model, parts, settings, nullptr), 0};
    run.mean_entropy = mean_entropy(run.run);
    runs.push_back(std::move(run));
  }
  return runs;
}

// Positions at which a token's cost is measured, up to the context.
constexpr int kCostPositions[] = {16, 32, 64, 128, 255};
constexpr int kCostRepeats = 5;

json shape_json(const ModelShape& s, long parameters) {
  return {{"layers", s.n_layers},   {"heads", s.n_heads},   {"kv_heads", s.n_kv_heads},
          {"head_dim", s.head_dim}, {"d_model", s.d_model}, {"d_ff", s.d_ff},
          {"context", s.context},   {"vocab", s.vocab},     {"parameters", parameters}};
}

json run_json(const LabRun& run, bool steps) {
  const double rate = run.seconds > 0 ? static_cast<double>(run.generated.size()) / run.seconds : 0;
  json out = {{"text", decode(run.prompt) + decode(run.generated)},
              {"generated", decode(run.generated)},
              {"tokens", run.generated.size()},
              {"seconds", run.seconds},
              {"tokens_per_second", rate},
              {"stopped", run.stopped.empty() ? json() : json(run.stopped)},
              {"kv_cache",
               {{"positions", run.cache.positions},
                {"formula_bytes", run.cache.formula_bytes},
                {"held_bytes", run.cache.held_bytes},
                {"allocated_bytes", run.cache.allocated_bytes},
                {"layer_lengths", run.cache.lengths}}}};
  if (run.speculative) {
    const SpeculativeFigures& f = *run.speculative;
    out["speculative"] = {{"rounds", f.rounds},
                          {"drafted", f.drafted},
                          {"reached", f.reached},
                          {"accepted", f.accepted},
                          {"emitted", f.emitted},
                          {"measured_acceptance", f.measured},
                          {"predicted_acceptance", f.predicted},
                          {"standard_error", f.standard_error},
                          {"as_predicted", f.as_predicted()},
                          {"target_passes_saved", f.target_passes_saved()}};
  }
  if (steps) {
    json list = json::array();
    for (const LabStep& s : run.steps) {
      json step = {{"token", s.token}, {"char", std::string(1, char_of(s.token))}};
      for (std::size_t i = 0; i < stage_names().size(); ++i) step[stage_names()[i]] = stage_of(s.stages, i);
      list.push_back(std::move(step));
    }
    out["steps"] = std::move(list);
  }
  return out;
}

// beam_search is a part of the lab when it searches instead of the loop.
constexpr char kBeamProblem[] = "beam_search";

// Refuses --mine files for parts the run does not have.
void check_parts_asked(const LabRequest& request) {
  const bool beam = request.settings.beam_width > 0;
  if (beam && (request.settings.draft_tokens > 0 || request.sweep))
    throw SpecError{"--beam: beam search goes with neither --draft-tokens nor --sweep"};
  for (const auto& [problem, file] : request.files) {
    if (problem == kBeamProblem && !beam)
      throw SpecError{"--mine beam_search: beam search is a part of the lab only with --beam N"};
    if (beam && problem != kBeamProblem)
      throw SpecError{fmt::format("--mine {}: with --beam the lab runs beam_search alone", problem)};
    if (!beam && std::find(loop_problems().begin(), loop_problems().end(), problem) == loop_problems().end()) {
      std::vector<std::string> parts = loop_problems();
      parts.push_back(kBeamProblem);
      throw SpecError{"--mine: " + unknown_name_message("part of the lab", problem, parts)};
    }
  }
}

BeamStudy beam_study(const Model& model, const LabResult& result, const Binaries& binaries, const LabRequest& request) {
  BeamStudy study;
  {
    Parts yours(result.owners, binaries.yours);
    study.yours = beam_search(model, yours, request.settings);
  }
  if (result.any_learner_part() && request.compare) {
    Parts reference({PartOwner{kBeamProblem, false, "the reference", ""}}, binaries.reference);
    study.reference = beam_search(model, reference, request.settings);
  }
  study.greedy = greedy_path(model, request.settings);
  study.difference =
      first_beam_difference(study.yours, study.reference ? &*study.reference : nullptr, request.settings);
  return study;
}

json hypothesis_json(const BeamHypothesis& h) {
  return {{"text", decode(h.tokens)}, {"tokens", h.tokens.size()}, {"log_prob", h.log_prob},
          {"score", h.score},         {"finished", h.finished()},  {"model_log_prob", h.model_log_prob}};
}

json beam_run_json(const BeamRun& run) {
  json hypotheses = json::array();
  for (const BeamHypothesis& h : run.hypotheses) hypotheses.push_back(hypothesis_json(h));
  return {{"hypotheses", hypotheses},
          {"model_calls", run.model_calls},
          {"seconds", run.seconds},
          {"stopped", run.stopped.empty() ? json() : json(run.stopped)}};
}

json beam_json(const BeamStudy& study) {
  json difference;
  if (study.difference)
    difference = {{"rank", study.difference->rank < 0 ? json() : json(study.difference->rank + 1)},
                  {"what", study.difference->what}};
  return {{"eos", std::string(1, char_of(kBeamEos))},
          {"yours", beam_run_json(study.yours)},
          {"reference", study.reference ? beam_run_json(*study.reference) : json()},
          {"greedy", hypothesis_json(study.greedy)},
          {"difference", difference}};
}

}  // namespace

bool LabResult::any_learner_part() const {
  for (const PartOwner& o : owners)
    if (o.learners) return true;
  return false;
}

std::string shipped_weights() { return this_installation().root + "/model/lab_models.bin"; }

LabResult run_lab(const Paths& paths, const LabRequest& request) {
  const bool beam = request.settings.beam_width > 0;
  check_parts_asked(request);
  const std::vector<Model> models = load_models(shipped_weights());
  if (models.size() < 2) throw JudgeFault{shipped_weights() + ": holds no draft model"};
  LabResult result;
  result.settings = request.settings;
  result.target = models[0].shape();
  result.draft = models[1].shape();
  result.target_parameters = models[0].parameter_count();
  result.draft_parameters = models[1].parameter_count();
  if (beam) {
    result.owners.push_back(owner_for(paths, kBeamProblem, request));
    const Binaries binaries = build_parts(paths, result.owners, request, &result.compile_error);
    if (!result.compile_error.empty()) return result;
    if (request.on_ready) request.on_ready(result);
    result.beam = beam_study(models[0], result, binaries, request);
    return result;
  }
  for (const std::string& problem : loop_problems()) result.owners.push_back(owner_for(paths, problem, request));
  const Binaries binaries = build_parts(paths, result.owners, request, &result.compile_error);
  if (!result.compile_error.empty()) return result;
  if (request.on_ready) request.on_ready(result);

  Parts yours(result.owners, binaries.yours);
  std::vector<PartOwner> references;
  for (const PartOwner& o : result.owners) references.push_back(PartOwner{o.problem, false, "the reference", ""});
  const bool beside = result.any_learner_part() && request.compare;
  if (request.settings.draft_tokens > 0) {
    result.yours = generate_speculative(models[0], models[1], yours, request.settings, request.on_token);
  } else if (!beside) {
    result.yours = generate(models[0], yours, request.settings, request.on_token);
  } else {
    {
      Parts lockstep(references, binaries.reference);
      result.yours = generate(models[0], yours, request.settings, request.on_token, &lockstep, &result.comparison);
    }
    Parts reference(references, binaries.reference);
    result.reference = generate(models[0], reference, request.settings, nullptr);
  }
  if (request.sweep) {
    result.sweep_knob = request.sweep->knob;
    result.sweep = sweep_runs(models[0], yours, request);
  }
  if (request.cache_cost)
    result.cache_costs =
        cache_cost(models[0], std::vector<int>(std::begin(kCostPositions), std::end(kCostPositions)), kCostRepeats);
  return result;
}

json lab_json(const LabResult& result, bool steps) {
  const LabSettings& s = result.settings;
  json parts = json::array();
  for (const PartOwner& o : result.owners)
    parts.push_back(
        {{"problem", o.problem}, {"whose", o.learners ? "yours" : "reference"}, {"file", o.file}, {"why", o.why}});
  const char* filter = s.filter.kind == Filter::Kind::kTopK   ? "top_k"
                       : s.filter.kind == Filter::Kind::kTopP ? "top_p"
                                                              : "none";
  json out = {{"prompt", s.prompt},
              {"settings",
               {{"max_new_tokens", s.max_new_tokens},
                {"temperature", s.temperature},
                {"penalty", s.penalty},
                {"filter", filter},
                {"top_k", s.filter.k},
                {"top_p", s.filter.p},
                {"greedy", s.greedy},
                {"seed", s.seed},
                {"draft_tokens", s.draft_tokens},
                {"beam_width", s.beam_width},
                {"length_penalty", s.length_penalty}}},
              {"parts", parts},
              {"models",
               {{"target", shape_json(result.target, result.target_parameters)},
                {"draft", shape_json(result.draft, result.draft_parameters)}}},
              {"compile_error", result.compile_error.empty() ? json() : json(result.compile_error)},
              {"yours", result.beam ? json() : run_json(result.yours, steps)},
              {"reference", result.reference ? run_json(*result.reference, false) : json()},
              {"steps_compared", result.comparison.steps_compared},
              {"divergence", json()}};
  if (result.beam) out["beam"] = beam_json(*result.beam);
  if (!result.sweep.empty()) {
    json runs = json::array();
    for (const SweepRun& r : result.sweep)
      runs.push_back({{"value", r.value},
                      {"generated", decode(r.run.generated)},
                      {"mean_entropy", r.mean_entropy},
                      {"stopped", r.run.stopped.empty() ? json() : json(r.run.stopped)}});
    out["sweep"] = {{"knob", result.sweep_knob}, {"runs", runs}};
  }
  if (!result.cache_costs.empty()) {
    json rows = json::array();
    for (const CacheCost& c : result.cache_costs)
      rows.push_back(
          {{"position", c.position}, {"with_cache_ms", c.with_cache_ms}, {"without_cache_ms", c.without_cache_ms}});
    out["cache_cost"] = rows;
  }
  if (const auto& d = result.comparison.divergence) {
    out["divergence"] = {{"step", d->step},
                         {"stage", d->stage},
                         {"max_difference", d->max_difference},
                         {"token", d->token},
                         {"char", std::string(1, char_of(d->token))},
                         {"yours", d->yours},
                         {"reference", d->reference},
                         {"steps_differing", d->steps_differing}};
  }
  return with_schema_version(std::move(out));
}

}  // namespace judge::lab
