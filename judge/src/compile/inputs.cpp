// The build inputs directory, scratch directories, precompiled preludes and
// adapter objects.
#include "compile/inputs.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>

#include "compile/compile.hpp"
#include "compile/compiler.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"
#include "util/fingerprint.hpp"
#include "util/text.hpp"

namespace judge {
namespace fs = std::filesystem;
namespace {
constexpr const char* kBuildsDir = "builds";
constexpr const char* kLibraryName = "libjudge_harness.a";
constexpr const char* kAdapterSourceName = "adapter.cpp";

// Readable by everyone: a sandboxed compiler may run as a user of its own.
void make_public(const fs::path& path, bool directory) { chmod(path.c_str(), directory ? 0755 : 0644); }

// A sandboxed compiler running as a user of its own walks up from its
// scratch directory: it needs search permission on the builds directory
// and on the cache (not on anything above).
void allow_search(const fs::path& dir) {
  struct stat info {};
  if (stat(dir.c_str(), &info) == 0 && (info.st_mode & 0011) != 0011) chmod(dir.c_str(), info.st_mode | 0011);
}

void copy_tree_public(const fs::path& from, const fs::path& to) {
  fs::create_directories(to);
  make_public(to, true);
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(from)) {
    fs::path target = to / fs::relative(entry.path(), from);
    if (entry.is_directory()) {
      fs::create_directories(target);
      make_public(target, true);
    } else if (entry.is_regular_file()) {
      fs::copy_file(entry.path(), target, fs::copy_options::overwrite_existing);
      make_public(target, false);
    }
  }
}

std::string inputs_key(const Paths& paths) {
  Fingerprint key;
  key.add("inputs-v1");
  key.add_tree(paths.harness_include);
  key.add_file_stamp(paths.harness_library);
  key.add(compiler_identity(paths.cache_dir));
  return key.hex();
}

// Copies the harness into cache/inputs-KEY through a temporary directory,
// so a reader sees all of it or none.
void gather(const Paths& paths, const fs::path& dir) {
  fs::path temporary = fmt::format("{}.tmp-{}", dir.string(), getpid());
  std::error_code error;
  fs::remove_all(temporary, error);
  try {
    copy_tree_public(paths.harness_include, temporary / "include");
    fs::copy_file(paths.harness_library, temporary / kLibraryName, fs::copy_options::overwrite_existing);
    make_public(temporary / kLibraryName, false);
  } catch (const fs::filesystem_error& e) {
    fs::remove_all(temporary, error);
    throw JudgeFault{fmt::format("cannot gather the build inputs in {}: {}", display_path(dir.string()), e.what())};
  }
  fs::rename(temporary, dir, error);
  if (error) fs::remove_all(temporary, error);  // another judge gathered them first
}

// Links (or else copies) `file`, a path inside the inputs directory, from
// the installation's default cache when that holds it for the same inputs
// key, and this cache is another one: what is built from the same harness,
// compiler and flags is the same whichever cache built it. True when the
// file is now in this cache.
bool borrow_built_input(const Paths& paths, const BuildInputs& inputs, const fs::path& file) {
  if (paths.default_cache_dir.empty()) return false;
  std::error_code error;
  const fs::path shared = fs::path(paths.default_cache_dir) / inputs.name;
  if (fs::equivalent(shared, inputs.dir, error) || !fs::is_regular_file(shared / file, error)) return false;
  const fs::path target = fs::path(inputs.dir) / file;
  const fs::path temporary = fmt::format("{}.tmp-{}", target.string(), getpid());
  fs::create_directories(target.parent_path(), error);
  make_public(target.parent_path(), true);
  fs::remove(temporary, error);
  fs::create_hard_link(shared / file, temporary, error);
  if (error) {
    error.clear();
    fs::copy_file(shared / file, temporary, error);
    if (error) return false;
    make_public(temporary, false);
  }
  fs::rename(temporary, target, error);
  if (error) fs::remove(temporary, error);
  return fs::is_regular_file(target, error);
}

}  // namespace

BuildInputs build_inputs(const Paths& paths) {
  static std::mutex mutex;
  static std::map<std::string, BuildInputs> known;  // by cache directory
  std::lock_guard<std::mutex> lock(mutex);
  if (auto found = known.find(paths.cache_dir); found != known.end()) return found->second;
  fs::create_directories(paths.cache_dir);
  allow_search(paths.cache_dir);
  BuildInputs inputs;
  inputs.key = inputs_key(paths);
  inputs.name = "inputs-" + inputs.key.substr(0, 32);
  inputs.dir = (fs::path(paths.cache_dir) / inputs.name).string();
  inputs.relative = "../../../" + inputs.name;
  if (!fs::is_regular_file(fs::path(inputs.dir) / kLibraryName)) gather(paths, inputs.dir);
  return known[paths.cache_dir] = inputs;
}

std::unique_ptr<SandboxScratch> make_build_scratch(const Paths& paths) {
  fs::path builds = fs::path(paths.cache_dir) / kBuildsDir;
  static std::once_flag stale_removed;
  std::call_once(stale_removed, [&] { remove_stale_scratch(builds.string(), ""); });
  std::error_code ignored;
  fs::create_directories(builds, ignored);
  allow_search(builds);
  std::string error;
  std::unique_ptr<SandboxScratch> scratch = SandboxScratch::create(builds.string(), "", &error);
  if (!scratch) throw JudgeFault{"cannot make a build directory: " + error};
  return scratch;
}

std::string prelude_for_adapter(const std::string& adapter_source) {
  return adapter_source.find("Eigen") != std::string::npos ? "prelude_eigen" : "prelude";
}

std::string precompiled_prelude(const Paths& paths, const BuildInputs& inputs, const std::string& name,
                                const std::vector<std::string>& flags) {
  static std::mutex mutex;  // the learner's and the reference's builds want the same one
  std::lock_guard<std::mutex> lock(mutex);
  Fingerprint key;
  for (const std::string& flag : flags) key.add(flag);
  std::string pch = "pch-" + key.hex().substr(0, 32);
  fs::path dir = fs::path(inputs.dir) / pch;
  std::string header = fmt::format("{}/{}/{}.hpp", inputs.relative, pch, name);
  if (fs::is_regular_file(dir / (name + ".hpp.gch"))) return header;
  try {
    std::error_code error;
    fs::create_directories(dir, error);
    make_public(dir, true);
    write_file_atomically((dir / (name + ".hpp")).string(), fmt::format("#include <judge_harness/{}.hpp>\n", name));
    make_public(dir / (name + ".hpp"), false);
    if (borrow_built_input(paths, inputs, fs::path(pch) / (name + ".hpp.gch"))) return header;
    std::unique_ptr<SandboxScratch> scratch = make_build_scratch(paths);
    CompileJob job{{compiler_executable()}, *scratch, inputs, compile_limits()};
    job.argv.insert(job.argv.end(), flags.begin(), flags.end());
    job.argv.insert(job.argv.end(), {"-x", "c++-header", header, "-o", name + ".hpp.gch"});
    if (run_compile(job).ended != CompileOutcome::Ended::kSucceeded) return "";
    fs::path compiled = fs::path(scratch->work()) / (name + ".hpp.gch");
    make_public(compiled, false);
    fs::rename(compiled, dir / (name + ".hpp.gch"), error);
    return error ? "" : header;
  } catch (const JudgeFault&) {
    return "";
  }
}

std::string adapter_object(const Paths& paths, const BuildInputs& inputs, const AdapterSources& sources,
                           const std::vector<std::string>& compile_argv) {
  static std::mutex mutex;  // the learner's and the reference's builds want the same one
  std::lock_guard<std::mutex> lock(mutex);
  Fingerprint key;
  key.add("adapter-v1");
  key.add(sources.adapter);
  key.add(sources.bindings);
  for (const std::string& arg : compile_argv) key.add(arg);
  key.add_file_stamp(paths.eigen_include + "/Eigen/Core");  // as a runner's key (compile/build_runner.cpp)
  key.add_file_stamp("/usr/include/features.h");
  const std::string name = fmt::format("{}-{}.o", sources.slug, key.hex().substr(0, 32));
  const fs::path dir = fs::path(inputs.dir) / "adapters";
  const std::string relative = fmt::format("{}/adapters/{}", inputs.relative, name);
  if (fs::is_regular_file(dir / name) || borrow_built_input(paths, inputs, fs::path("adapters") / name))
    return relative;
  std::error_code error;
  fs::create_directories(dir, error);
  make_public(dir, true);
  std::unique_ptr<SandboxScratch> scratch = make_build_scratch(paths);
  const fs::path work = scratch->work();
  write_file_atomically((work / kAdapterSourceName).string(), sources.adapter);
  write_file_atomically((work / sources.bindings_file()).string(), sources.bindings);
  CompileJob job{compile_argv, *scratch, inputs, compile_limits()};
  job.argv.insert(job.argv.end(), {"-c", kAdapterSourceName, "-o", "adapter.o"});
  CompileOutcome outcome = run_compile(job);
  if (outcome.ended != CompileOutcome::Ended::kSucceeded)
    throw JudgeFault{fmt::format("the adapter harness/problems/{}.cpp does not compile:\n{}{}", sources.slug,
                                 outcome.output, describe_limit(outcome, job.limits))};
  make_public(work / "adapter.o", false);
  // Through a name of this process's own, so another judge never sees half a file.
  const fs::path temporary = dir / fmt::format("{}.tmp-{}", name, getpid());
  fs::copy_file(work / "adapter.o", temporary, fs::copy_options::overwrite_existing, error);
  if (!error) fs::rename(temporary, dir / name, error);
  if (error)
    throw JudgeFault{
        fmt::format("cannot store the adapter object in {}: {}", display_path(dir.string()), error.message())};
  return relative;
}

}  // namespace judge
