// Finding, identifying and probing the compiler.
#include "compile/compiler.hpp"

#include <unistd.h>

#include <fmt/format.h>
#include <cstdlib>
#include <filesystem>
#include <mutex>

#include "sandbox/process.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"
#include "util/fingerprint.hpp"

namespace judge {
namespace fs = std::filesystem;
namespace {
constexpr const char* kGoldLinker = "-fuse-ld=gold";

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

bool succeeds(const std::vector<std::string>& argv, std::string* output) {
  SpawnSpec spec;
  spec.argv = argv;
  spec.env = compiler_environment();
  CommandResult result = run_command(spec, 10000);
  if (output) *output = result.started ? result.output : result.error;
  return result.started && result.status.exited && result.status.code == 0;
}

std::string probe_identity() {
  std::string identity;
  if (!succeeds({compiler_command(), "--version"}, &identity))
    throw JudgeFault{fmt::format("cannot run the C++ compiler '{}'; install g++ or set CXX", compiler_command())};
  if (succeeds({compiler_command(), kGoldLinker, "-Wl,--version"}, nullptr))
    identity += fmt::format("link with {}\n", kGoldLinker);
  return identity;
}
}  // namespace

std::string compiler_command() {
  const char* cxx = std::getenv("CXX");
  return cxx && *cxx ? cxx : "c++";
}

std::string compiler_executable() { return resolve_compiler(compiler_command()); }

std::vector<std::string> compiler_installation_dirs() {
  fs::path directory = fs::path(compiler_executable()).parent_path();
  if (directory == "/usr/bin" || directory == "/bin" || !directory.has_parent_path()) return {};
  return {directory.parent_path().string()};
}

std::vector<std::string> compiler_environment() {
  std::vector<std::string> env;
  for (const char* name : {"PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "CPATH", "LIBRARY_PATH", "COMPILER_PATH"})
    if (const char* value = std::getenv(name)) env.push_back(fmt::format("{}={}", name, value));
  return env;
}

const std::string& compiler_identity(const std::string& cache_dir) {
  static std::once_flag once;
  static std::string identity;
  std::call_once(once, [&] {
    Fingerprint stamp;
    stamp.add(compiler_command());
    stamp.add_file_stamp(resolve_compiler(compiler_command()));
    stamp.add("identity and linker");  // what the remembered file holds
    std::string remembered = (fs::path(cache_dir) / ("compiler-" + stamp.hex() + ".txt")).string();
    identity = read_file_or_empty(remembered);
    if (!identity.empty()) return;
    identity = probe_identity();
    try {
      write_file_atomically(remembered, identity);
    } catch (const JudgeFault&) {
      // Not remembered: the next run asks the compiler again.
    }
  });
  return identity;
}

std::string linker_flag(const std::string& cache_dir) {
  return compiler_identity(cache_dir).find(kGoldLinker) != std::string::npos ? kGoldLinker : "";
}

}  // namespace judge
