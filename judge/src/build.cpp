// build_runner: hash the inputs, reuse a cached runner or compile one.
#include "build.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <mutex>
#include <sstream>

#include "checks.hpp"
#include "diagnostics.hpp"
#include "process.hpp"
#include "yaml_reader.hpp"

namespace judge {
namespace fs = std::filesystem;
namespace {
constexpr int kCompileTimeoutMs = 180000;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

// FNV-1a, 64-bit: stable across runs and machines, enough for a cache key.
class Fingerprint {
 public:
  void add(const std::string& bytes) {
    for (unsigned char c : bytes) hash_ = (hash_ ^ c) * 0x100000001b3ull;
    hash_ = (hash_ ^ 0xff) * 0x100000001b3ull;  // separator, so "ab"+"c" != "a"+"bc"
  }
  std::string hex() const { return fmt::format("{:016x}", hash_); }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ull;
};

std::vector<std::string> base_environment() {
  std::vector<std::string> env;
  for (const char* name : {"PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "CPATH", "LIBRARY_PATH", "COMPILER_PATH"})
    if (const char* value = std::getenv(name)) env.push_back(fmt::format("{}={}", name, value));
  return env;
}

// `$CXX --version`, once per process: part of the cache key.
const std::string& compiler_identity() {
  static std::once_flag once;
  static std::string identity;
  std::call_once(once, [] {
    SpawnSpec spec;
    spec.argv = {compiler_command(), "--version"};
    spec.env = base_environment();
    CommandResult result = run_command(spec, 10000);
    if (!result.started || !result.status.exited || result.status.code != 0)
      throw JudgeFault{fmt::format("cannot run the C++ compiler '{}'{}; install g++ or set CXX", compiler_command(),
                                   result.error.empty() ? "" : ": " + result.error)};
    identity = result.output;
  });
  return identity;
}

std::vector<std::string> compile_flags(const Paths& paths) {
  return {"-std=c++20", "-O2", "-pipe", "-fdiagnostics-color=never", "-D_GLIBCXX_ASSERTIONS",
          "-I" + paths.harness_include, "-isystem", paths.eigen_include};
}
}  // namespace

std::string compiler_command() {
  const char* cxx = std::getenv("CXX");
  return cxx && *cxx ? cxx : "c++";
}

BuildOutcome build_runner(const Paths& paths, const Problem& problem, const std::string& solution_file,
                          const std::string& display_name) {
  auto start = std::chrono::steady_clock::now();
  BuildOutcome outcome;
  std::string solution = fs::absolute(solution_file).lexically_normal().string();
  std::string adapter = (fs::path(paths.adapters_dir) / (problem.slug + ".cpp")).string();
  if (!fs::is_regular_file(adapter)) throw JudgeFault{fmt::format("{}: no adapter for problem '{}'", display_path(adapter), problem.slug)};
  if (solution.find_first_of("\"\\\n") != std::string::npos)
    throw JudgeFault{fmt::format("{}: the path contains a quote, backslash or newline", display_name)};

  std::vector<std::string> flags = compile_flags(paths);
  Fingerprint key;
  key.add(read_file(solution));
  key.add(solution);  // diagnostics and __FILE__ name it
  key.add(read_file(adapter));
  for (const auto& entry : fs::recursive_directory_iterator(paths.harness_include))
    if (entry.is_regular_file()) key.add(entry.path().string()), key.add(read_file(entry.path().string()));
  key.add(read_file(paths.harness_library));
  key.add(compiler_command());
  key.add(compiler_identity());
  for (const std::string& flag : flags) key.add(flag);

  fs::create_directories(paths.cache_dir);
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
  spec.argv.push_back(fmt::format("-DJUDGE_SOLUTION=\"{}\"", solution));
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
  std::error_code rename_error;
  fs::rename(temporary, binary, rename_error);
  if (rename_error && !fs::is_regular_file(binary))
    throw JudgeFault{fmt::format("cannot store the runner in {}: {}", display_path(binary), rename_error.message())};
  outcome.ok = true;
  return outcome;
}

}  // namespace judge
