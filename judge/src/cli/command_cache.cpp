// `judge cache [clear]`: how much the cache of runners and results holds
// (it is bounded: util/cache_bound.hpp), or empty it.
#include <fmt/format.h>

#include "cli/command.hpp"
#include "compile/runner_cache.hpp"
#include "util/cache_bound.hpp"
#include "util/text.hpp"

namespace judge {
namespace {
std::string mebibytes(std::uint64_t bytes) { return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1 << 20)); }

class CacheCommand : public Command {
 public:
  void define(CLI::App& command) override {
    command.add_option("ACTION", action_, "nothing to show the cache's size, or clear to empty it")
        ->check(CLI::IsMember({"clear"}));
  }

  int run(const CommandContext& context) override {
    const std::string& dir = context.paths.cache_dir;
    if (action_ == "clear") {
      fmt::print("cleared {}: {} freed\n", display_path(dir), mebibytes(clear_cache(dir)));
      return 0;
    }
    CacheUsage usage = cache_usage(dir);
    fmt::print("cache: {} (JUDGE_CACHE_DIR moves it)\n", display_path(dir));
    fmt::print("  runners  {:>6}  {:>12}  (least recently used removed past {}; JUDGE_CACHE_MAX_MB sets it)\n",
               usage.runners, mebibytes(usage.runner_bytes), mebibytes(RunnerCache::bound_bytes()));
    fmt::print("  results  {:>6}  {:>12}  (least recently used removed past {}, an eighth of the bound)\n",
               usage.results, mebibytes(usage.result_bytes), mebibytes(result_bound_bytes()));
    fmt::print("  other            {:>12}  (build inputs, precompiled headers, compiler identity)\n",
               mebibytes(usage.other_bytes));
    fmt::print("  total            {:>12}\n", mebibytes(usage.runner_bytes + usage.result_bytes + usage.other_bytes));
    return 0;
  }

 private:
  std::string action_;
};
}  // namespace

std::unique_ptr<Command> make_cache_command() { return std::make_unique<CacheCommand>(); }

}  // namespace judge
