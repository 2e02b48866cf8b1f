// build_runner: hash the inputs, reuse a cached runner or compile one.
#include "build/build.hpp"

#include <unistd.h>

#include <fmt/format.h>
#include <atomic>
#include <cerrno>
#include <filesystem>

#include "build/compiler.hpp"
#include "build/diagnostics.hpp"
#include "build/prelude.hpp"
#include "sandbox/process.hpp"
#include "spec/package.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"
#include "util/fingerprint.hpp"
#include "util/text.hpp"

namespace judge {
namespace fs = std::filesystem;
namespace {
constexpr int kCompileTimeoutMs = 180000;

// -g1 (line tables only, no measurable compile time) lets a crash trace name
// the learner's line.
std::vector<std::string> compile_flags(const Paths& paths, const BuildOptions& options) {
  std::vector<std::string> flags = {"-std=c++20",
                                    "-pipe",
                                    "-fdiagnostics-color=never",
                                    "-D_GLIBCXX_ASSERTIONS",
                                    "-I" + paths.harness_include,
                                    "-isystem",
                                    paths.eigen_include};
  if (options.sanitize)
    flags.insert(flags.end(), {"-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,undefined"});
  else
    flags.insert(flags.end(), {"-O2", "-g1"});
  return flags;
}

// Everything the runner is made of, hashed: its name in the cache.
std::string runner_key(const Paths& paths, const std::string& solution, const std::string& adapter,
                       const std::vector<std::string>& flags) {
  Fingerprint key;
  key.add_file(solution);
  key.add(solution);  // diagnostics and __FILE__ name it
  key.add_quoted_includes(solution);
  key.add_file(adapter);
  key.add_tree(paths.harness_include);
  key.add_file_stamp(paths.harness_library);
  key.add(compiler_command());
  key.add(compiler_identity(paths.cache_dir));
  for (const std::string& flag : flags) key.add(flag);
  return key.hex();
}

std::vector<std::string> compile_command(const Paths& paths, const std::string& solution, const std::string& adapter,
                                         const std::vector<std::string>& flags, const std::string& output) {
  std::vector<std::string> argv = {compiler_command()};
  argv.insert(argv.end(), flags.begin(), flags.end());
  // A precompiled prelude, when it builds: Eigen for the problems that use it.
  std::string prelude = precompiled_prelude(paths, prelude_for_adapter(read_file_or_empty(adapter)), flags);
  if (!prelude.empty()) argv.insert(argv.end(), {"-include", prelude});
  argv.push_back(fmt::format("-DJUDGE_SOLUTION=\"{}\"", solution));
  if (std::string linker = linker_flag(paths.cache_dir); !linker.empty()) argv.push_back(linker);
  argv.insert(argv.end(), {adapter, paths.harness_library, "-o", output});
  return argv;
}

// Moves a finished build into the cache. Never replaces a runner another
// build stored meanwhile: a sandboxed runner being started from it pins its
// inode (the exec descriptor) and its path (the Landlock execute rule), and
// a rename over it between the two makes the exec fail. A hard link stores
// it only if it is absent.
void store_runner(const std::string& temporary, const std::string& binary) {
  std::error_code error;
  if (link(temporary.c_str(), binary.c_str()) == 0 || errno == EEXIST)
    fs::remove(temporary, error);
  else
    fs::rename(temporary, binary, error);  // no hard links here
  if (error && !fs::is_regular_file(binary))
    throw JudgeFault{fmt::format("cannot store the runner in {}: {}", display_path(binary), error.message())};
}
}  // namespace

BuildOutcome build_runner(const Paths& paths, const Problem& problem, const std::string& solution_file,
                          const std::string& display_name, const BuildOptions& options) {
  BuildOutcome outcome;
  std::string solution = fs::absolute(solution_file).lexically_normal().string();
  std::string adapter = package_of(paths, problem.slug).adapter;
  if (!fs::is_regular_file(adapter))
    throw JudgeFault{fmt::format("{}: no adapter for problem '{}'", display_path(adapter), problem.slug)};
  if (solution.find_first_of("\"\\\n") != std::string::npos)
    throw JudgeFault{fmt::format("{}: the path contains a quote, backslash or newline", display_name)};

  std::vector<std::string> flags = compile_flags(paths, options);
  fs::create_directories(paths.cache_dir);
  outcome.binary =
      (fs::path(paths.cache_dir) / fmt::format("{}-{}", problem.slug, runner_key(paths, solution, adapter, flags)))
          .string();
  if (fs::is_regular_file(outcome.binary)) {
    outcome.ok = true;
    return outcome;
  }
  // Unique per process and per call: the learner's and the reference's
  // builds run at once and may be the same file (judge run --reference).
  static std::atomic<int> builds_started{0};
  std::string temporary = fmt::format("{}.tmp{}-{}", outcome.binary, getpid(), builds_started++);
  SpawnSpec spec;
  spec.argv = compile_command(paths, solution, adapter, flags, temporary);
  spec.env = compiler_environment();
  CommandResult result = run_command(spec, kCompileTimeoutMs);
  if (!result.started) throw JudgeFault{fmt::format("cannot run the C++ compiler: {}", result.error)};
  if (result.timed_out) {
    outcome.diagnostics = fmt::format("the compiler did not finish within {} s", kCompileTimeoutMs / 1000);
    return outcome;
  }
  if (!result.status.exited || result.status.code != 0) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    DiagnosticsContext context{solution, display_name, adapter, "harness/problems/" + problem.slug + ".cpp",
                               problem.signature};
    outcome.diagnostics = filter_diagnostics(result.output, context);
    return outcome;
  }
  store_runner(temporary, outcome.binary);
  outcome.ok = true;
  return outcome;
}

}  // namespace judge
