// build_runner: read the solution, hash the inputs, reuse a cached runner or
// compile one in the sandbox.
#include "compile/build_runner.hpp"

#include <fmt/format.h>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>

#include "compile/compile.hpp"
#include "compile/compiler.hpp"
#include "compile/diagnostics.hpp"
#include "compile/inputs.hpp"
#include "compile/runner_cache.hpp"
#include "package/layout.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"
#include "util/fingerprint.hpp"
#include "util/text.hpp"

namespace judge {
namespace fs = std::filesystem;
namespace {
constexpr const char* kSolutionName = "solution.hpp";
constexpr const char* kAdapterName = "adapter.cpp";
constexpr const char* kRunnerName = "runner";
constexpr const char* kLearnerUnitName = "learner.cpp";
// A quick build's optimization level, after the shared flags, for the
// learner's translation unit alone: the precompiled prelude and the
// adapter's object are the -O2 build's (GCC takes a prelude precompiled at
// -O2 for an -Og compile: the two define the same macros), so a quick build
// compiles nothing but the learner's file, even in an empty cache.
constexpr const char* kQuickLevel = "-Og";

// How an adapter includes its bindings whatever the package is named: a
// package copied under another name keeps compiling.
std::string bindings_define(const AdapterSources& sources) {
  return fmt::format("-DJUDGE_LEARNER_BINDINGS=\"{}\"", sources.bindings_file());
}

// The solution's bytes; nullopt with *refusal (a compile error's text) for
// anything but a readable regular file of at most kMaxSolutionBytes.
std::optional<std::string> read_solution(const std::string& file, const std::string& display, std::string* refusal) {
  ReadRefusal why = ReadRefusal::kNone;
  int error_number = 0;
  std::optional<std::string> content = read_regular_file(file, kMaxSolutionBytes, &why, &error_number);
  switch (why) {
    case ReadRefusal::kNone: break;
    case ReadRefusal::kCannotOpen:
      *refusal = fmt::format("cannot read {}: {}", display, std::strerror(error_number));
      break;
    case ReadRefusal::kNotRegular:
      *refusal = fmt::format("{} is not a regular file; a solution is one ordinary file", display);
      break;
    case ReadRefusal::kTooLarge:
      *refusal = fmt::format("{} is larger than {} MiB, the most a solution may be", display, kMaxSolutionBytes >> 20);
      break;
  }
  return content;
}

// The flags every compile of a runner shares (and its key includes); -g1
// (line tables only, no measurable compile time) lets a crash trace name
// the learner's line. -fno-finite-loops: C++ lets an optimizer assume that
// a loop without side effects ends, and delete it; a learner's loop that
// forgot its `++i` must be the time limit it is, not a wrong answer.
std::vector<std::string> compile_flags(const BuildInputs& inputs, const std::string& eigen_include,
                                       const BuildOptions& options) {
  std::vector<std::string> flags = {"-std=c++20",
                                    "-pipe",
                                    "-fdiagnostics-color=never",
                                    "-D_GLIBCXX_ASSERTIONS",
                                    "-fno-finite-loops",
                                    "-I" + inputs.relative + "/include",
                                    "-isystem",
                                    eigen_include};
  if (options.sanitize)
    flags.insert(flags.end(), {"-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,undefined"});
  else
    flags.insert(flags.end(), {"-O2", "-g1"});
  return flags;
}

// Everything the runner is made of, hashed: its name in the cache.
std::string runner_key(const Paths& paths, const std::string& solution, const AdapterSources& sources,
                       const BuildInputs& inputs, const std::vector<std::string>& flags) {
  Fingerprint key;
  key.add("runner-v3");
  key.add(solution);
  key.add(sources.adapter);
  key.add(sources.bindings);
  key.add(inputs.key);
  for (const std::string& flag : flags) key.add(flag);
  // The system headers the solution may include: those of the compiler are
  // in its identity (inputs.key); Eigen's and the C library's are not.
  key.add_file_stamp(paths.eigen_include + "/Eigen/Core");
  key.add_file_stamp("/usr/include/features.h");
  return key.hex();
}

// The compiler, its flags and a precompiled prelude (when it builds),
// without files: what every compile of a runner starts with.
std::vector<std::string> compiler_argv(const Paths& paths, const BuildInputs& inputs, const std::string& prelude_source,
                                       const std::vector<std::string>& flags) {
  std::vector<std::string> argv = {compiler_executable()};
  argv.insert(argv.end(), flags.begin(), flags.end());
  std::string prelude = precompiled_prelude(paths, inputs, prelude_for_adapter(prelude_source), flags);
  if (!prelude.empty()) argv.insert(argv.end(), {"-include", prelude});
  return argv;
}

// The files of a runner's compile, in its scratch directory, and the command
// that compiles them. With learner bindings, the solution is compiled alone
// (learner.cpp includes SLUG.learner.hpp, which includes the solution) and
// linked with the adapter's object, built once; without, the adapter
// includes the solution and both are compiled.
std::vector<std::string> write_compile(const Paths& paths, const BuildInputs& inputs, const AdapterSources& sources,
                                       const std::string& solution, const std::vector<std::string>& flags,
                                       const std::vector<std::string>& learner_flags, const std::string& work) {
  std::vector<std::string> argv = compiler_argv(paths, inputs, sources.adapter + sources.bindings, flags);
  std::vector<std::string> objects;
  write_file_atomically((fs::path(work) / kSolutionName).string(), solution);
  if (sources.bindings.empty()) {
    write_file_atomically((fs::path(work) / kAdapterName).string(), sources.adapter);
    objects = {kAdapterName};
  } else {
    argv.push_back(bindings_define(sources));
    std::string adapter = adapter_object(paths, inputs, sources, argv);
    write_file_atomically((fs::path(work) / sources.bindings_file()).string(), sources.bindings);
    write_file_atomically((fs::path(work) / kLearnerUnitName).string(),
                          fmt::format("#include \"{}\"\n", sources.bindings_file()));
    objects = {kLearnerUnitName, adapter};
  }
  argv.insert(argv.end(), learner_flags.begin(), learner_flags.end());
  argv.push_back(fmt::format("-DJUDGE_SOLUTION=\"{}\"", kSolutionName));
  if (std::string linker = linker_flag(paths.cache_dir); !linker.empty()) argv.push_back(linker);
  argv.insert(argv.end(), objects.begin(), objects.end());
  argv.insert(argv.end(), {inputs.relative + "/libjudge_harness.a", "-o", kRunnerName});
  return argv;
}

std::string explain_compile_failure(const CompileOutcome& outcome, const CompileLimits& limits, const Problem& problem,
                                    const BuildInputs& inputs, const std::string& display_name,
                                    const AdapterSources& sources) {
  std::string limit = describe_limit(outcome, limits);
  if (!limit.empty()) return limit;
  // With bindings, a wrong signature is an error in SLUG.learner.hpp; without, in the adapter.
  const bool bindings = !sources.bindings.empty();
  const std::string adapter = bindings ? sources.bindings_file() : kAdapterName;
  DiagnosticsContext context{kSolutionName,
                             display_name,
                             adapter,
                             "harness/problems/" + (bindings ? adapter : problem.slug + ".cpp"),
                             bindings ? inputs.relative + "/include/judge_harness/learner.hpp" : "",
                             problem.signature,
                             {{inputs.relative + "/include/", "harness/include/"}}};
  return filter_diagnostics(outcome.output, context);
}
}  // namespace

BuildOutcome build_runner(const Paths& paths, const Problem& problem, const std::string& solution_file,
                          const std::string& display_name, const BuildOptions& options) {
  BuildOutcome outcome;
  const Package& package = problem.package;
  std::optional<std::string> adapter = read_file(package.adapter);
  if (!adapter)
    throw JudgeFault{fmt::format("{}: no adapter for problem '{}'", display_path(package.adapter), problem.slug)};
  AdapterSources sources{problem.slug, *adapter, read_file(package.learner_bindings).value_or("")};
  std::optional<std::string> solution = read_solution(solution_file, display_name, &outcome.diagnostics);
  if (!solution) return outcome;

  BuildInputs inputs = build_inputs(paths);
  std::vector<std::string> flags = compile_flags(inputs, paths.eigen_include, options);
  std::vector<std::string> learner_flags;
  if (options.quick && !options.sanitize) learner_flags.push_back(kQuickLevel);
  std::vector<std::string> key_flags = flags;
  key_flags.insert(key_flags.end(), learner_flags.begin(), learner_flags.end());
  RunnerCache cache(paths.cache_dir);
  outcome.binary = cache.runner_path(problem.slug, runner_key(paths, *solution, sources, inputs, key_flags));
  if (cache.reuse(outcome.binary)) {
    outcome.ok = true;
    return outcome;
  }
  if (options.on_compile) options.on_compile();
  std::unique_ptr<SandboxScratch> scratch = make_build_scratch(paths);
  CompileLimits limits = compile_limits();
  CompileJob job{write_compile(paths, inputs, sources, *solution, flags, learner_flags, scratch->work()), *scratch,
                 inputs, limits, options.cancel};
  CompileOutcome compiled = run_compile(job);
  if (compiled.ended == CompileOutcome::Ended::kCancelled) {
    outcome.diagnostics = "the build was cancelled";
    return outcome;
  }
  if (compiled.ended != CompileOutcome::Ended::kSucceeded) {
    outcome.diagnostics = explain_compile_failure(compiled, limits, problem, inputs, display_name, sources);
    return outcome;
  }
  cache.store((fs::path(scratch->work()) / kRunnerName).string(), outcome.binary);
  outcome.ok = true;
  return outcome;
}

}  // namespace judge
