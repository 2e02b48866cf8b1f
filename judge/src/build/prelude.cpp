// Precompiled preludes under <cache>/pch-<key>/.
#include "build/prelude.hpp"

#include <unistd.h>

#include <fmt/format.h>
#include <filesystem>
#include <mutex>

#include "build/compiler.hpp"
#include "sandbox/process.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"
#include "util/fingerprint.hpp"

namespace judge {
namespace fs = std::filesystem;
namespace {
constexpr int kPreludeTimeoutMs = 180000;
}  // namespace

std::string prelude_for_adapter(const std::string& adapter_source) {
  return adapter_source.find("Eigen") != std::string::npos ? "prelude_eigen" : "prelude";
}

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
  try {
    write_file_atomically(header.string(), fmt::format("#include <judge_harness/{}.hpp>\n", name));
  } catch (const JudgeFault&) {
    return "";
  }
  std::string temporary = fmt::format("{}.tmp{}", compiled.string(), getpid());
  SpawnSpec spec;
  spec.argv = {compiler_command()};
  spec.argv.insert(spec.argv.end(), flags.begin(), flags.end());
  spec.argv.insert(spec.argv.end(), {"-x", "c++-header", header.string(), "-o", temporary});
  spec.env = compiler_environment();
  CommandResult result = run_command(spec, kPreludeTimeoutMs);
  if (!result.started || !result.status.exited || result.status.code != 0) {
    fs::remove(temporary, error);
    return "";
  }
  fs::rename(temporary, compiled, error);
  return error ? "" : header.string();
}

}  // namespace judge
