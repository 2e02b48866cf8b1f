// `judge lab`: generates text with the lab's small trained model, the
// learner's solutions plugged into the decoding loop (lab/lab.hpp does the
// work). Prints the text as it comes, then the speed, the KV cache's size,
// the reference's run beside and where the two first differ, or the
// acceptance of speculative decoding. Exit status: 0 the loop ran and agrees
// with the reference; 1 a part of the learner's differs, failed or does not
// compile, or the measured acceptance is far from the predicted; 2 bad
// options or the judge cannot work.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "cli/command.hpp"
#include "lab/lab.hpp"
#include "package/result_codec.hpp"
#include "sandbox/sandbox_policy.hpp"
#include "util/errors.hpp"
#include "util/terminal.hpp"
#include "util/text.hpp"

namespace judge {
namespace {
using lab::Filter;

struct LabOptions {
  lab::LabSettings settings;
  std::vector<std::string> mine;  // PROBLEM=FILE
  bool reference_only = false;
  double top_p = 0.9;
  int top_k = 0;
  bool no_filter = false;
  bool steps = false;
  std::string sweep;  // KNOB=V1,V2,...
  bool cache_cost = false;
  std::string format = "text";
  bool trust_submissions = false;
};

std::string shape_text(const lab::ModelShape& s, long parameters) {
  return fmt::format("{} layers, {} query heads sharing {} key/value heads of {}, {} parameters", s.n_layers, s.n_heads,
                     s.n_kv_heads, s.head_dim, parameters);
}

// One line a part: whose, and why.
void print_parts(const lab::LabResult& r) {
  fmt::print("parts:\n");
  for (const lab::PartOwner& o : r.owners)
    fmt::print("  {:<21} {} ({}{})\n", o.problem, o.learners ? "yours" : "reference",
               o.learners ? terminal_safe_line(o.file) : "", o.learners ? ", " + o.why : o.why);
  fmt::print("model: {}; draft: {}\n", shape_text(r.target, r.target_parameters),
             shape_text(r.draft, r.draft_parameters));
}

std::string shown_char(int token) {
  const char c = lab::char_of(token);
  return c == '\n' ? "newline" : c == ' ' ? "space" : fmt::format("'{}'", c);
}

void print_figures(const lab::LabResult& r) {
  const lab::LabRun& run = r.yours;
  const double rate = run.seconds > 0 ? run.generated.size() / run.seconds : 0;
  fmt::print("\n\n{} tokens in {:.2f} s: {:.0f} tokens a second\n", run.generated.size(), run.seconds, rate);
  if (!run.stopped.empty()) fmt::print("stopped {}\n", terminal_safe_line(run.stopped));
  const lab::CacheFigures& c = run.cache;
  fmt::print(
      "KV cache: 2 * {} layers * {} kv heads * {} head_dim * {} positions * 8 bytes = {} bytes by the formula;\n",
      r.target.n_layers, r.target.n_kv_heads, r.target.head_dim, c.positions, c.formula_bytes);
  fmt::print("  the attention part's caches hold {} bytes (lengths {}), in matrices of {} bytes for {} positions{}\n",
             c.held_bytes, fmt::join(c.lengths, ", "), c.allocated_bytes, r.target.context,
             c.held_bytes == c.formula_bytes ? "" : ": NOT what the formula says");
  if (run.speculative) {
    const lab::SpeculativeFigures& f = *run.speculative;
    const double z = f.standard_error > 0 ? (f.measured - f.predicted) / f.standard_error : 0;
    fmt::print("speculative decoding, {} drafts a round: {} tokens in {} target passes ({} passes saved)\n",
               r.settings.draft_tokens, f.emitted, f.rounds, f.target_passes_saved());
    fmt::print(
        "  acceptance: measured {:.3f} ({} of {} drafts reached), predicted {:.3f} +- {:.3f} from "
        "sum min(p, q): {}\n",
        f.measured, f.accepted, f.reached, f.predicted, f.standard_error,
        f.as_predicted() ? fmt::format("within sampling error (z = {:.2f})", z)
                         : fmt::format("NOT within sampling error (z = {:.2f}): the accepted tokens do not follow "
                                       "the rule that keeps the target's distribution",
                                       z));
  }
}

void print_comparison(const lab::LabResult& r) {
  if (!r.reference) return;
  fmt::print("\nthe reference's run, same prompt and seed:\n{}{}\n", terminal_safe(r.settings.prompt),
             lab::decode(r.reference->generated));
  if (const auto& d = r.comparison.divergence) {
    fmt::print(
        "\nfirst difference: at generated token {} ({} of {} steps differ), after the {} stage: "
        "the probability of {} is {:.6g} in yours, {:.6g} in the reference's (the largest difference, {:.3g})\n",
        d->step + 1, d->steps_differing, r.comparison.steps_compared, d->stage, shown_char(d->token), d->yours,
        d->reference, d->max_difference);
    if (d->stage == "model")
      fmt::print("  the model's own output differs, so the attention step (kv_cache) is where to look\n");
  } else if (!r.yours.stopped.empty()) {
    if (r.comparison.steps_compared == 0) return;
    fmt::print("\nbefore it stopped, your parts gave the reference's next-token distributions at all {} steps\n",
               r.comparison.steps_compared);
  } else {
    fmt::print("\nyour parts give the reference's next-token distributions at all {} steps (within {}){}\n",
               r.comparison.steps_compared, lab::kDistributionTolerance,
               r.reference->generated == r.yours.generated ? ""
                                                           : "; the texts differ only where a sampler drew "
                                                             "another token from the same distribution");
  }
}

lab::Sweep parse_sweep(const std::string& text) {
  const std::size_t eq = text.find('=');
  lab::Sweep sweep{text.substr(0, eq == std::string::npos ? 0 : eq), {}};
  if (sweep.knob != "temperature" && sweep.knob != "top_p")
    throw SpecError{fmt::format("--sweep {}: expected temperature=V1,V2,... or top_p=V1,V2,...", text)};
  std::size_t at = eq + 1;
  while (at <= text.size()) {
    std::size_t comma = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, comma - at);
    char* end = nullptr;
    const double value = std::strtod(item.c_str(), &end);
    const bool valid = !item.empty() && end == item.c_str() + item.size() && std::isfinite(value) && value > 0 &&
                       (sweep.knob == "temperature" ? value <= 100 : value <= 1);
    if (!valid)
      throw SpecError{fmt::format("--sweep: '{}' is not a {} (above 0{})", item, sweep.knob,
                                  sweep.knob == "top_p" ? ", at most 1" : "")};
    sweep.values.push_back(value);
    at = comma + 1;
  }
  if (sweep.values.size() > 8) throw SpecError{"--sweep: at most 8 values"};
  return sweep;
}

void print_studies(const lab::LabResult& r) {
  if (!r.sweep.empty()) {
    fmt::print("\nthe same prompt and seed at each {} (mean entropy of the distribution drawn from, nats):\n",
               r.sweep_knob);
    for (const lab::SweepRun& run : r.sweep)
      fmt::print("\n{} = {} ({:.2f} nats):\n{}{}\n{}", r.sweep_knob, run.value, run.mean_entropy,
                 terminal_safe(r.settings.prompt), terminal_safe(lab::decode(run.run.generated)),
                 run.run.stopped.empty() ? "" : "stopped " + terminal_safe_line(run.run.stopped) + "\n");
  }
  if (!r.cache_costs.empty()) {
    fmt::print("\none token's cost at each position (the model's own attention, median of 5):\n");
    fmt::print("  {:>8}  {:>14}  {:>17}  {:>6}\n", "position", "with the cache", "without (prefix)", "ratio");
    for (const lab::CacheCost& c : r.cache_costs)
      fmt::print("  {:>8}  {:>11.3f} ms  {:>14.3f} ms  {:>6.1f}\n", c.position, c.with_cache_ms, c.without_cache_ms,
                 c.with_cache_ms > 0 ? c.without_cache_ms / c.with_cache_ms : 0);
    fmt::print(
        "  with the cache a token costs one step, its attention O(t); without, the whole prefix again: "
        "O(t) steps, O(t^2) attention\n");
  }
}

std::string beam_text(const std::vector<int>& tokens) {
  std::string text = lab::decode(tokens);
  std::string shown;
  for (char c : text) shown += c == '\n' ? std::string("\\n") : std::string(1, c);
  return terminal_safe_line(shown);
}

void print_hypotheses(const lab::LabResult& r, const lab::BeamRun& run) {
  for (std::size_t i = 0; i < run.hypotheses.size(); ++i) {
    const lab::BeamHypothesis& h = run.hypotheses[i];
    fmt::print("  {}. score {:9.4f}  log_prob {:9.4f}  {:>3} tokens{}  {}{}\n", i + 1, h.score, h.log_prob,
               h.tokens.size(), h.finished() ? ", ended" : ",      ", terminal_safe_line(r.settings.prompt),
               beam_text(h.tokens));
  }
  if (!run.stopped.empty()) fmt::print("  stopped {}\n", terminal_safe_line(run.stopped));
}

// Beam search's hypotheses, the reference's beside, and greedy's path.
void print_beam(const lab::LabResult& r) {
  const lab::BeamStudy& b = *r.beam;
  fmt::print("\nbeam search, width {}, length penalty {}, a newline (\\n) ends a hypothesis:\n", r.settings.beam_width,
             r.settings.length_penalty);
  print_hypotheses(r, b.yours);
  if (b.yours.stopped.empty())
    fmt::print("{} search asked the model {} times in {:.2f} s\n", r.owners[0].learners ? "your" : "the reference's",
               b.yours.model_calls, b.yours.seconds);
  fmt::print("greedy (the most probable character at each step): score {:.4f}, log_prob {:.4f}: {}{}\n", b.greedy.score,
             b.greedy.log_prob, terminal_safe_line(r.settings.prompt), beam_text(b.greedy.tokens));
  if (b.reference) {
    fmt::print("\nthe reference's beam ({} model calls):\n", b.reference->model_calls);
    print_hypotheses(r, *b.reference);
  }
  if (b.difference)
    fmt::print("\nfirst difference{}: {}\n",
               b.difference->rank < 0 ? "" : fmt::format(", hypothesis {}", b.difference->rank + 1),
               terminal_safe_line(b.difference->what));
  else if (b.reference && b.yours.stopped.empty())
    fmt::print("\nyour beam is the reference's: the same hypotheses in the same order, every log_prob the model's\n");
}

class LabCommand : public Command {
 public:
  void define(CLI::App& command) override {
    lab::LabSettings& s = options_.settings;
    command.add_option("--prompt", s.prompt, "the text to continue (default \"the kernel\")");
    command.add_option("--max-new-tokens", s.max_new_tokens, "characters to generate (default 200)")
        ->check(CLI::Range(1, 4096));
    command.add_option("--temperature", s.temperature, "default 0.8");
    command.add_option("--penalty", s.penalty, "repetition penalty (default 1.1; 1 changes nothing)");
    CLI::Option* k = command.add_option("--top-k", options_.top_k, "filter with top-k instead of top-p");
    CLI::Option* p = command.add_option("--top-p", options_.top_p, "filter with top-p (default 0.9)");
    command.add_flag("--no-filter", options_.no_filter, "sample from the tempered distribution")
        ->excludes(k)
        ->excludes(p);
    k->excludes(p);
    command.add_flag("--greedy", s.greedy, "take the most probable token after the filter, no sampler");
    command.add_option("--seed", s.seed, "the run's seed (default 1)");
    command
        .add_option("--draft-tokens", s.draft_tokens, "speculative decoding: the draft model proposes N tokens a round")
        ->check(CLI::Range(0, 16));
    CLI::Option* beam =
        command.add_option("--beam", s.beam_width, "beam search of width N instead of sampling (1 to 16)")
            ->check(CLI::Range(1, 16));
    beam->excludes(k)->excludes(p)->excludes("--no-filter")->excludes("--greedy")->excludes("--draft-tokens");
    beam->excludes("--temperature")->excludes("--penalty")->excludes("--seed");
    command.add_option("--length-penalty", s.length_penalty, "with --beam: score = log_prob / length^this (default 1)")
        ->needs(beam)
        ->check(CLI::Range(0.0, 10.0));
    command.add_option("--mine", options_.mine, "plug FILE in as your solution of PROBLEM (PROBLEM=FILE; repeatable)");
    command.add_flag("--reference-only", options_.reference_only, "every part the reference's");
    command.add_option("--sweep", options_.sweep,
                       "then the same prompt and seed at each value: temperature=0.3,0.8,1.5 or top_p=0.5,0.9,1");
    command.add_flag("--cache-cost", options_.cache_cost,
                     "then what a token costs with and without the KV cache as the sequence grows");
    command.add_flag("--steps", options_.steps, "JSON: every step's distributions after each stage");
    command.add_option("--format", options_.format, "output format")->check(CLI::IsMember({"text", "json"}));
    command.add_flag("--trust-submissions", options_.trust_submissions, kTrustSubmissionsHelp);
  }

  int run(const CommandContext& context) override {
    lab::LabRequest request = make_request();
    const bool text = options_.format == "text";
    for (const auto& [problem, file] : request.files) {
      std::string note = check_sandbox_for("lab", owned_by_someone_else(file), options_.trust_submissions);
      if (!note.empty()) fmt::print(stderr, "judge: note: {} (see judge doctor)\n", note);
    }
    LiveLine live(stdout, text && wants_live_progress(stdout));
    request.on_progress = [&](const std::string& what) { live.show(fmt::format("  {}...", what)); };
    if (text) {
      request.on_ready = [&](const lab::LabResult& ready) {
        live.clear();
        print_parts(ready);
        if (!ready.beam && ready.settings.beam_width == 0) fmt::print("\n{}", terminal_safe(options_.settings.prompt));
        std::fflush(stdout);
      };
      request.on_token = [&](int token) {
        fmt::print("{}", terminal_safe(std::string(1, lab::char_of(token))));
        std::fflush(stdout);
      };
    }
    const lab::LabResult result = lab::run_lab(context.paths, request);
    live.clear();
    const bool agrees = result.compile_error.empty() && result.yours.stopped.empty() && !result.comparison.divergence &&
                        (!result.yours.speculative || result.yours.speculative->as_predicted()) &&
                        (!result.beam || (result.beam->yours.stopped.empty() && !result.beam->difference));
    if (!text) {
      fmt::print("{}\n", json_text(lab::lab_json(result, options_.steps)));
      return agrees ? 0 : 1;
    }
    if (!result.compile_error.empty()) {
      print_parts(result);
      fmt::print("\n{}", terminal_safe(result.compile_error));
      return 1;
    }
    if (result.beam) {
      print_beam(result);
    } else {
      print_figures(result);
      print_comparison(result);
    }
    print_studies(result);
    return agrees ? 0 : 1;
  }

 private:
  lab::LabRequest make_request() const {
    lab::LabRequest request;
    request.settings = options_.settings;
    Filter& f = request.settings.filter;
    if (options_.no_filter)
      f = Filter{Filter::Kind::kNone, 0, 1};
    else if (options_.top_k > 0)
      f = Filter{Filter::Kind::kTopK, options_.top_k, 1};
    else
      f = Filter{Filter::Kind::kTopP, 0, options_.top_p};
    for (const std::string& pair : options_.mine) {
      const std::size_t eq = pair.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == pair.size())
        throw SpecError{fmt::format("--mine {}: expected PROBLEM=FILE, e.g. top_p=workspace/top_p.hpp", pair)};
      request.files[pair.substr(0, eq)] = pair.substr(eq + 1);
    }
    request.reference_only = options_.reference_only;
    request.cache_cost = options_.cache_cost;
    if (!options_.sweep.empty()) request.sweep = parse_sweep(options_.sweep);
    return request;
  }

  LabOptions options_;
};
}  // namespace

std::unique_ptr<Command> make_lab_command() { return std::make_unique<LabCommand>(); }

}  // namespace judge
