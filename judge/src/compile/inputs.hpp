// What a runner's compile reads besides the solution, the adapter and the
// system's headers and libraries: the harness headers, the harness library
// and the precompiled preludes. They are gathered once per harness and
// compiler into one read-only directory of the cache, cache/inputs-KEY,
// which is all of the judge's files that a sandboxed compiler can see.
//
// Every compile works in cache/builds/<pid>-XXXXXX/work and names the
// inputs from there as "../../../inputs-KEY/...": relative paths, the same
// whether the compiler sees the host or only its view (compile/compile.hpp),
// and a compiler running as a user of its own needs no access to the
// directories above the cache (a checkout in /root, say).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sandbox/scratch.hpp"

#include "util/paths.hpp"

namespace judge {

struct BuildInputs {
  std::string dir;       // absolute
  std::string name;      // "inputs-KEY"
  std::string relative;  // from a compile's working directory: "../../../inputs-KEY"
  std::string key;       // what the inputs are made of, for every runner's key
};

// Gathers the inputs (once; later calls, and later runs, find them).
// Thread-safe. Throws JudgeFault when the cache cannot be written.
BuildInputs build_inputs(const Paths& paths);

// A scratch directory for one compile: cache/builds/<pid>-XXXXXX
// (sandbox/scratch.hpp). Throws JudgeFault when it cannot be made.
std::unique_ptr<SandboxScratch> make_build_scratch(const Paths& paths);

// "prelude_eigen" for an adapter that mentions Eigen, else "prelude" (the
// headers harness/include/judge_harness/NAME.hpp).
std::string prelude_for_adapter(const std::string& adapter_source);

// Builds (once per set of flags; later calls find it) the precompiled
// prelude `name` with `flags`, and returns the header to pass to -include,
// relative to a scratch directory (taken from the installation's default
// cache when that built it: Paths::default_cache_dir); "" when it cannot be built (compiling
// then works without it, only slower). Thread-safe.
std::string precompiled_prelude(const Paths& paths, const BuildInputs& inputs, const std::string& name,
                                const std::vector<std::string>& flags);

// A problem's adapter and the learner bindings it includes
// (harness/problems/SLUG.cpp and SLUG.learner.hpp, package/layout.hpp).
struct AdapterSources {
  std::string slug;
  std::string adapter;
  std::string bindings;

  // The bindings' name in a compile's scratch directory, as the adapter
  // includes it (JUDGE_LEARNER_BINDINGS) and as diagnostics name it.
  std::string bindings_file() const { return slug + ".learner.hpp"; }
};

// Compiles (once per adapter, bindings and compile command; later calls,
// and later runs, find it) the adapter without any solution into an object
// file, and returns its path relative to a scratch directory (taken from
// the installation's default cache when that built it).
// `compile_argv` is the compiler and its flags, without files. Thread-safe.
// Throws JudgeFault with the compiler's words when the adapter does not
// compile: a fault of the package, not of a solution.
std::string adapter_object(const Paths& paths, const BuildInputs& inputs, const AdapterSources& sources,
                           const std::vector<std::string>& compile_argv);

}  // namespace judge
