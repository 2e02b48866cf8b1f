// build_runner: hash the inputs, reuse a cached runner or compile one.
#include "build.hpp"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <mutex>
#include <sstream>

#include "checks.hpp"
#include "diagnostics.hpp"
#include "fingerprint.hpp"
#include "process.hpp"
#include "yaml_reader.hpp"

namespace judge {
namespace fs = std::filesystem;
namespace {
constexpr int kCompileTimeoutMs = 180000;

std::vector<std::string> base_environment() {
  std::vector<std::string> env;
  for (const char* name : {"PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "CPATH", "LIBRARY_PATH", "COMPILER_PATH"})
    if (const char* value = std::getenv(name)) env.push_back(fmt::format("{}={}", name, value));
  return env;
}

// The compiler's executable, found the way execvp would, links resolved.
std::string resolve_compiler(const std::string& command) {
  if (command.find('/') != std::string::npos) return fs::weakly_canonical(command).string();
  const char* path = std::getenv("PATH");
  std::string directories = path ? path : "/usr/bin:/bin";
  for (std::size_t start = 0; start <= directories.size();) {
    std::size_t end = directories.find(':', start);
    if (end == std::string::npos) end = directories.size();
    fs::path candidate = fs::path(directories.substr(start, end - start)) / command;
    if (access(candidate.c_str(), X_OK) == 0) return fs::weakly_canonical(candidate).string();
    start = end + 1;
  }
  return command;
}

constexpr const char* kGoldLinker = "-fuse-ld=gold";

// True when the compiler links with gold: about 0.15 s less per runner than
// the default BFD linker, on every edit.
bool gold_links(const std::string& compiler) {
  SpawnSpec spec;
  spec.argv = {compiler, kGoldLinker, "-Wl,--version"};
  spec.env = base_environment();
  CommandResult result = run_command(spec, 10000);
  return result.started && result.status.exited && result.status.code == 0;
}

// `$CXX --version` and the linker to use, part of every cache key.
// Remembered in the cache by the compiler executable's path, size and time,
// so a cached run spawns nothing.
const std::string& compiler_identity(const std::string& cache_dir) {
  static std::once_flag once;
  static std::string identity;
  std::call_once(once, [&] {
    Fingerprint stamp;
    stamp.add(compiler_command());
    stamp.add_file_stamp(resolve_compiler(compiler_command()));
    stamp.add("identity and linker");  // what the remembered file holds
    std::string remembered = (fs::path(cache_dir) / ("compiler-" + stamp.hex() + ".txt")).string();
    if (fs::is_regular_file(remembered)) {
      identity = read_whole_file(remembered);
      if (!identity.empty()) return;
    }
    SpawnSpec spec;
    spec.argv = {compiler_command(), "--version"};
    spec.env = base_environment();
    CommandResult result = run_command(spec, 10000);
    if (!result.started || !result.status.exited || result.status.code != 0)
      throw JudgeFault{fmt::format("cannot run the C++ compiler '{}'{}; install g++ or set CXX", compiler_command(),
                                   result.error.empty() ? "" : ": " + result.error)};
    identity = result.output;
    if (gold_links(compiler_command())) identity += fmt::format("link with {}\n", kGoldLinker);
    std::string temporary = fmt::format("{}.tmp{}", remembered, getpid());
    std::ofstream(temporary) << identity;
    std::error_code ignored;
    fs::rename(temporary, remembered, ignored);
  });
  return identity;
}

// Builds (once per compiler, flags and prelude content) a precompiled
// prelude in the cache and returns the header to pass with -include, or ""
// when it cannot be built (compiling then works without it, only slower).
std::string precompiled_prelude(const Paths& paths, const std::string& name, const std::vector<std::string>& flags) {
  static std::mutex mutex;  // the learner's and the reference's builds want the same one
  std::lock_guard<std::mutex> lock(mutex);
  Fingerprint key;
  key.add(name);
  key.add_tree(paths.harness_include);
  key.add(compiler_command());
  key.add(compiler_identity(paths.cache_dir));
  for (const std::string& flag : flags) key.add(flag);
  fs::path dir = fs::path(paths.cache_dir) / ("pch-" + key.hex());
  fs::path header = dir / (name + ".hpp");
  fs::path compiled = dir / (name + ".hpp.gch");
  if (fs::is_regular_file(compiled)) return header.string();
  std::error_code error;
  fs::create_directories(dir, error);
  {
    std::ofstream out(header);
    out << "#include <judge_harness/" << name << ".hpp>\n";
  }
  std::string temporary = fmt::format("{}.tmp{}", compiled.string(), getpid());
  SpawnSpec spec;
  spec.argv = {compiler_command()};
  spec.argv.insert(spec.argv.end(), flags.begin(), flags.end());
  spec.argv.insert(spec.argv.end(), {"-x", "c++-header", header.string(), "-o", temporary});
  spec.env = base_environment();
  CommandResult result = run_command(spec, kCompileTimeoutMs);
  if (!result.started || !result.status.exited || result.status.code != 0) {
    fs::remove(temporary, error);
    return "";
  }
  fs::rename(temporary, compiled, error);
  return error ? "" : header.string();
}

// -g1 (line tables only, no measurable compile time) lets a crash trace name
// the learner's line.
std::vector<std::string> compile_flags(const Paths& paths, const BuildOptions& options) {
  std::vector<std::string> flags = {"-std=c++20", "-pipe", "-fdiagnostics-color=never", "-D_GLIBCXX_ASSERTIONS",
                                    "-I" + paths.harness_include, "-isystem", paths.eigen_include};
  if (options.sanitize)
    flags.insert(flags.end(), {"-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,undefined"});
  else
    flags.insert(flags.end(), {"-O2", "-g1"});
  return flags;
}
}  // namespace

std::string compiler_command() {
  const char* cxx = std::getenv("CXX");
  return cxx && *cxx ? cxx : "c++";
}

BuildOutcome build_runner(const Paths& paths, const Problem& problem, const std::string& solution_file,
                          const std::string& display_name, const BuildOptions& options) {
  auto start = std::chrono::steady_clock::now();
  BuildOutcome outcome;
  std::string solution = fs::absolute(solution_file).lexically_normal().string();
  std::string adapter = (fs::path(paths.adapters_dir) / (problem.slug + ".cpp")).string();
  if (!fs::is_regular_file(adapter)) throw JudgeFault{fmt::format("{}: no adapter for problem '{}'", display_path(adapter), problem.slug)};
  if (solution.find_first_of("\"\\\n") != std::string::npos)
    throw JudgeFault{fmt::format("{}: the path contains a quote, backslash or newline", display_name)};

  std::vector<std::string> flags = compile_flags(paths, options);
  fs::create_directories(paths.cache_dir);
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

  std::string binary = (fs::path(paths.cache_dir) / fmt::format("{}-{}", problem.slug, key.hex())).string();
  outcome.binary = binary;
  if (fs::is_regular_file(binary)) {
    outcome.ok = outcome.cached = true;
    return outcome;
  }
  // Unique per process and per call: the learner's and the reference's
  // builds run at once and may be the same file (judge run --reference).
  static std::atomic<int> builds_started{0};
  std::string temporary = fmt::format("{}.tmp{}-{}", binary, getpid(), builds_started++);
  SpawnSpec spec;
  spec.argv = {compiler_command()};
  spec.argv.insert(spec.argv.end(), flags.begin(), flags.end());
  // A precompiled prelude, when it builds: Eigen for the problems that use it.
  std::string prelude = precompiled_prelude(
      paths, read_whole_file(adapter).find("Eigen") != std::string::npos ? "prelude_eigen" : "prelude", flags);
  if (!prelude.empty()) spec.argv.insert(spec.argv.end(), {"-include", prelude});
  spec.argv.push_back(fmt::format("-DJUDGE_SOLUTION=\"{}\"", solution));
  if (compiler_identity(paths.cache_dir).find(kGoldLinker) != std::string::npos) spec.argv.push_back(kGoldLinker);
  spec.argv.insert(spec.argv.end(), {adapter, paths.harness_library, "-o", temporary});
  spec.env = base_environment();
  CommandResult result = run_command(spec, kCompileTimeoutMs);
  outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
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
  // Never replace a runner another build stored meanwhile: a sandboxed
  // runner being started from it pins its inode (the exec descriptor) and
  // its path (the Landlock execute rule), and a rename over it between the
  // two makes the exec fail. A hard link stores it only if it is absent.
  std::error_code rename_error;
  if (link(temporary.c_str(), binary.c_str()) == 0 || errno == EEXIST) fs::remove(temporary, rename_error);
  else fs::rename(temporary, binary, rename_error);  // no hard links here
  if (rename_error && !fs::is_regular_file(binary))
    throw JudgeFault{fmt::format("cannot store the runner in {}: {}", display_path(binary), rename_error.message())};
  outcome.ok = true;
  return outcome;
}

}  // namespace judge
