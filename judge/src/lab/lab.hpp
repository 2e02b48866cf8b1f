// `judge lab` as a service: which parts are whose, their runners built the
// way judging builds them, the models loaded, the learner's loop run, and
// beside it the reference's on the same prompt and seed.
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "lab/beam.hpp"
#include "lab/decoding.hpp"
#include "lab/evaluation.hpp"
#include "lab/model.hpp"
#include "lab/parts.hpp"
#include "util/paths.hpp"

namespace judge::lab {

struct LabResult;

// The same prompt and seed again at each value of one knob.
struct Sweep {
  std::string knob;  // "temperature" or "top_p"
  std::vector<double> values;
};

struct SweepRun {
  double value = 0;
  LabRun run;
  double mean_entropy = 0;  // of the distribution drawn from, nats, over the steps
};

struct LabRequest {
  LabSettings settings;
  // Files to plug in whatever the workspace holds: problem -> file.
  std::map<std::string, std::string> files;
  bool reference_only = false;                          // no part of the workspace
  bool compare = true;                                  // run the reference beside (plain decoding)
  std::optional<Sweep> sweep;                           // then the learner's loop at each value
  bool cache_cost = false;                              // then the cost of a token with and without the cache
  std::function<void(const std::string&)> on_progress;  // "compiling top_p ..."
  std::function<void(int token)> on_token;              // the learner's run, as it goes
  // Once the parts are built and the models loaded, before the first token.
  std::function<void(const LabResult&)> on_ready;
};

struct LabResult {
  LabSettings settings;
  std::vector<PartOwner> owners;
  ModelShape target, draft;
  long target_parameters = 0, draft_parameters = 0;
  std::string compile_error;  // a part of the learner's that did not compile: its problem and the errors
  LabRun yours;
  std::optional<LabRun> reference;  // the reference's own run, when a part is the learner's
  Comparison comparison;            // the reference on the learner's tokens
  std::string sweep_knob;
  std::vector<SweepRun> sweep;
  std::vector<CacheCost> cache_costs;
  std::optional<BeamStudy> beam;  // settings.beam_width > 0: beam search instead of the loop
  bool any_learner_part() const;
};

// The weights shipped with the judge: model/lab_models.bin of its installation.
std::string shipped_weights();

// Runs the lab. Throws JudgeFault when the judge cannot (no weights, a
// reference that does not build) and SpecError for bad settings.
LabResult run_lab(const Paths& paths, const LabRequest& request);

// The result as JSON (docs/schemas/lab.json): settings, parts, texts,
// figures, the divergence, and every step's distributions when `steps`.
nlohmann::json lab_json(const LabResult& result, bool steps);

}  // namespace judge::lab
