#include "lab/decoding.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "util/errors.hpp"

namespace judge::lab {
namespace {

// The target model's caches are numbered from 0 (parts.hpp).
constexpr int kTargetCaches = 0;

// One model reading a growing sequence through a part's attention: it feeds
// the tokens it has not read yet, and forgets the ones it read past a cut.
class Reader {
 public:
  Reader(const Model& model, Parts& parts, int first_cache) : model_(model), parts_(parts), first_cache_(first_cache) {}

  // The logits after the whole of `tokens` (not empty).
  std::vector<double> next(const std::vector<int>& tokens) {
    const ModelShape& s = model_.shape();
    Eigen::VectorXd logits;
    for (; fed_ < static_cast<int>(tokens.size()); ++fed_) {
      const int position = fed_;
      logits = model_.next_logits(
          tokens[static_cast<std::size_t>(fed_)], position,
          [&](int layer, const Eigen::VectorXd& q, const Eigen::VectorXd& k, const Eigen::VectorXd& v) {
            return parts_.attend(first_cache_ + layer, position, s.context, s.n_heads, s.n_kv_heads, q, k, v);
          });
    }
    return std::vector<double>(logits.data(), logits.data() + logits.size());
  }
  // Forgets every token from `length` on (their rows are cut at the next step).
  void cut(int length) { fed_ = std::min(fed_, length); }
  int fed() const { return fed_; }

 private:
  const Model& model_;
  Parts& parts_;
  int first_cache_;
  int fed_ = 0;
};

std::vector<double> logs(const std::vector<double>& probs) {
  std::vector<double> out(probs.size());
  for (std::size_t i = 0; i < probs.size(); ++i)
    out[i] = probs[i] > 0 ? std::log(probs[i]) : -std::numeric_limits<double>::infinity();
  return out;
}

// The stages after the model: penalty, temperature, filter.
Stages stages_of(Parts& parts, const std::vector<double>& logits, const std::vector<int>& sequence,
                 const LabSettings& settings) {
  Stages s;
  s.softmax = softmax(logits);
  const std::vector<double> penalized = parts.penalize(logits, sequence, settings.penalty);
  s.penalized = softmax(penalized);
  s.tempered = parts.temper(penalized, settings.temperature);
  s.filtered = parts.filter(logs(s.tempered), settings.filter);
  return s;
}

int choose(Parts& parts, const Stages& stages, const LabSettings& settings, std::uint64_t seed) {
  if (settings.greedy)
    return static_cast<int>(std::max_element(stages.filtered.begin(), stages.filtered.end()) - stages.filtered.begin());
  return parts.sample(logs(stages.tempered), settings.filter, seed);
}

// A seed per step from the run's seed: well mixed, as the problems ask.
std::uint64_t step_seed(std::uint64_t seed, std::uint64_t step) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * (step + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void compare_step(const Stages& yours, const Stages& reference, int step, Comparison* comparison) {
  ++comparison->steps_compared;
  for (std::size_t stage = 0; stage < stage_names().size(); ++stage) {
    const std::vector<double>& a = stage_of(yours, stage);
    const std::vector<double>& b = stage_of(reference, stage);
    Divergence d;
    for (std::size_t i = 0; i < a.size(); ++i) {
      const double diff = std::isnan(a[i]) ? std::numeric_limits<double>::infinity() : std::abs(a[i] - b[i]);
      if (diff > d.max_difference) {
        d.max_difference = diff;
        d.token = static_cast<int>(i);
        d.yours = a[i];
        d.reference = b[i];
      }
    }
    if (d.max_difference <= kDistributionTolerance) continue;
    if (!comparison->divergence) {
      d.step = step;
      d.stage = stage_names()[stage];
      comparison->divergence = d;
    }
    ++comparison->divergence->steps_differing;
    return;
  }
}

CacheFigures cache_figures(const Model& model, const Parts& parts, int positions) {
  const ModelShape& s = model.shape();
  const long row = 2L * s.n_kv_heads * s.head_dim * static_cast<long>(sizeof(double));
  CacheFigures f;
  f.positions = positions;
  f.formula_bytes = row * s.n_layers * positions;
  for (int layer = 0; layer < s.n_layers; ++layer) {
    auto it = parts.caches().find(kTargetCaches + layer);
    const CacheReport report = it == parts.caches().end() ? CacheReport{} : it->second;
    f.lengths.push_back(report.length);
    f.held_bytes += row * report.length;
    f.allocated_bytes += report.bytes;
  }
  return f;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

std::vector<int> prompt_tokens(const Model& model, const LabSettings& settings) {
  std::vector<int> tokens = encode(settings.prompt);
  if (tokens.empty()) throw SpecError{"--prompt: it has no character the model knows (newline and printable ASCII)"};
  const int room = model.shape().context;
  if (static_cast<int>(tokens.size()) + settings.max_new_tokens > room)
    throw SpecError{
        fmt::format("--max-new-tokens: the prompt ({} characters) and {} new tokens exceed the model's "
                    "context of {} positions",
                    tokens.size(), settings.max_new_tokens, room)};
  return tokens;
}

bool SpeculativeFigures::as_predicted() const {
  return reached == 0 || std::abs(measured - predicted) <= kAcceptanceErrors * standard_error;
}

const std::vector<std::string>& stage_names() {
  static const std::vector<std::string> names = {"model", "penalty", "temperature", "filter"};
  return names;
}

const std::vector<double>& stage_of(const Stages& stages, std::size_t index) {
  switch (index) {
    case 0: return stages.softmax;
    case 1: return stages.penalized;
    case 2: return stages.tempered;
    default: return stages.filtered;
  }
}

LabRun generate(const Model& model, Parts& parts, const LabSettings& settings,
                const std::function<void(int token)>& on_token, Parts* reference, Comparison* comparison) {
  LabRun run;
  run.prompt = prompt_tokens(model, settings);
  std::vector<int> sequence = run.prompt;
  Reader yours(model, parts, kTargetCaches);
  std::optional<Reader> theirs;
  if (reference != nullptr) theirs.emplace(model, *reference, kTargetCaches);
  const auto start = std::chrono::steady_clock::now();
  double comparing = 0;
  try {
    for (int step = 0; step < settings.max_new_tokens; ++step) {
      LabStep lab_step;
      lab_step.stages = stages_of(parts, yours.next(sequence), sequence, settings);
      lab_step.token =
          choose(parts, lab_step.stages, settings, step_seed(settings.seed, static_cast<std::uint64_t>(step)));
      if (theirs) {
        const auto compare_start = std::chrono::steady_clock::now();
        compare_step(lab_step.stages, stages_of(*reference, theirs->next(sequence), sequence, settings), step,
                     comparison);
        comparing += seconds_since(compare_start);
      }
      sequence.push_back(lab_step.token);
      run.generated.push_back(lab_step.token);
      run.steps.push_back(std::move(lab_step));
      if (on_token) on_token(run.generated.back());
    }
  } catch (const PartFailed& failure) {
    run.stopped = fmt::format("at token {}: {}", run.generated.size(), failure.what());
  }
  run.seconds = seconds_since(start) - comparing;  // the learner's loop alone
  run.cache = cache_figures(model, parts, yours.fed());
  return run;
}

namespace {

// One round's drafts, the draft's distributions they were drawn from (q,
// K x V) and the target's at the K + 1 positions (p).
struct Round {
  std::vector<int> drafts;
  Eigen::MatrixXd q, p;
};

Round propose_and_score(Reader& proposer, Reader& verifier, Parts& parts, const std::vector<int>& sequence, int k,
                        const LabSettings& settings, std::uint64_t* draws) {
  const int vocab = kAlphabetSize, base = static_cast<int>(sequence.size());
  Round round{{}, Eigen::MatrixXd(k, vocab), Eigen::MatrixXd(k + 1, vocab)};
  std::vector<int> extended = sequence;
  for (int i = 0; i < k; ++i) {
    Stages s = stages_of(parts, proposer.next(extended), extended, settings);
    round.q.row(i) = Eigen::Map<const Eigen::RowVectorXd>(s.filtered.data(), vocab);
    round.drafts.push_back(choose(parts, s, settings, step_seed(settings.seed, (*draws)++)));
    extended.push_back(round.drafts.back());
  }
  for (int i = 0; i <= k; ++i) {
    std::vector<int> prefix(extended.begin(), extended.begin() + base + i);
    Stages s = stages_of(parts, verifier.next(prefix), prefix, settings);
    round.p.row(i) = Eigen::Map<const Eigen::RowVectorXd>(s.filtered.data(), vocab);
  }
  return round;
}

// Adds a verified round to the figures: the drafts it reached (up to the
// first rejection) each add their acceptance, sum_x min(p(x), q(x)), to
// the prediction, and its Bernoulli variance to the error's.
void tally(const Round& round, int emitted, SpeculativeFigures* figures, double* predicted_sum, double* variance_sum) {
  const int k = static_cast<int>(round.drafts.size()), accepted = emitted - 1;
  const int reached = std::min(k, accepted + 1);
  for (int i = 0; i < reached; ++i) {
    const double alpha = round.p.row(i).cwiseMin(round.q.row(i)).sum();
    *predicted_sum += alpha;
    *variance_sum += alpha * (1 - alpha);
  }
  ++figures->rounds;
  figures->drafted += k;
  figures->reached += reached;
  figures->accepted += accepted;
  figures->emitted += emitted;
}

}  // namespace

LabRun generate_speculative(const Model& target, const Model& draft, Parts& parts, const LabSettings& settings,
                            const std::function<void(int token)>& on_token) {
  if (settings.greedy) throw SpecError{"--draft-tokens: speculative decoding samples; leave out --greedy"};
  LabRun run;
  run.prompt = prompt_tokens(target, settings);
  std::vector<int> sequence = run.prompt;
  Reader verifier(target, parts, kTargetCaches), proposer(draft, parts, kDraftCaches);
  SpeculativeFigures figures;
  double predicted_sum = 0, variance_sum = 0;
  std::uint64_t draws = 0;  // every draw gets a seed of its own
  const auto start = std::chrono::steady_clock::now();
  try {
    while (static_cast<int>(run.generated.size()) < settings.max_new_tokens) {
      const int base = static_cast<int>(sequence.size());
      const int left = settings.max_new_tokens - static_cast<int>(run.generated.size());
      const Round round = propose_and_score(proposer, verifier, parts, sequence,
                                            std::min(settings.draft_tokens, left - 1), settings, &draws);
      const std::vector<int> emitted = parts.accept(round.drafts, round.q, round.p, step_seed(settings.seed, draws++));
      const int accepted = static_cast<int>(emitted.size()) - 1;
      if (!std::equal(emitted.begin(), emitted.begin() + accepted, round.drafts.begin()))
        throw PartFailed{parts.whose("speculative_decoding") +
                         " speculative_accept returned a token as accepted that is not the draft's"};
      tally(round, static_cast<int>(emitted.size()), &figures, &predicted_sum, &variance_sum);
      for (int token : emitted) {
        sequence.push_back(token);
        run.generated.push_back(token);
        if (on_token) on_token(token);
      }
      verifier.cut(base + accepted);
      proposer.cut(base + accepted);
    }
  } catch (const PartFailed& failure) {
    run.stopped = fmt::format("at token {}: {}", run.generated.size(), failure.what());
  }
  run.seconds = seconds_since(start);
  if (figures.reached > 0) {
    figures.measured = static_cast<double>(figures.accepted) / figures.reached;
    figures.predicted = predicted_sum / figures.reached;
    figures.standard_error = std::sqrt(variance_sum) / figures.reached;
  }
  run.speculative = figures;
  run.cache = cache_figures(target, parts, verifier.fed());
  return run;
}

}  // namespace judge::lab
