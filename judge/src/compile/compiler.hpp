// The C++ compiler the judge builds runners with: which one ($CXX, else
// c++), the environment it runs in, and its identity (its --version text
// and the linker to use), which every cache key includes.
#pragma once

#include <string>
#include <vector>

namespace judge {

// $CXX, else "c++".
std::string compiler_command();

// The compiler's executable, found the way execvp would and with links
// resolved: a sandboxed compile starts it by this path.
std::string compiler_executable();

// Directories a sandboxed compile must see besides the system's toolchain
// (sandbox/system_mounts.hpp): the prefix of a compiler installed outside
// /usr/bin (CXX=/opt/gcc-13/bin/g++ gives /opt/gcc-13); none for the
// system's compiler.
std::vector<std::string> compiler_installation_dirs();

// The environment of a trusted compiler run (probing the compiler): the
// judge's PATH, HOME, TMPDIR, locale and the compiler's own search-path
// variables, nothing else.
std::vector<std::string> compiler_environment();

// `$CXX --version` and the linker to use, remembered in `cache_dir` by the
// compiler executable's path, size and time, so a cached run spawns
// nothing. Computed once per process. Throws JudgeFault when the compiler
// cannot be run at all.
const std::string& compiler_identity(const std::string& cache_dir);

// The flag that links with gold, or "" when the compiler cannot: gold
// saves about 0.15 s per runner over the default BFD linker, on every edit.
std::string linker_flag(const std::string& cache_dir);

}  // namespace judge
