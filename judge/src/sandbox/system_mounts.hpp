// What of the host's file system a sandboxed child sees: allow-lists of
// the system directories a program needs, never a whole tree (such as
// /usr or /usr/local) that may hold an installed judge's own files, and
// the judge's own paths that no view may show (hidden_paths.hpp) even
// where an allowed directory holds them.
#pragma once

#include <string>
#include <vector>

#include "sandbox/view.hpp"

namespace judge {

// What a sandboxed child needs of the system.
enum class SystemNeeds {
  // A dynamically linked program (a runner): the loader, its cache and the
  // directories of the shared libraries.
  kLibraries,
  // Also the compiler, assembler, linker and binutils, and the system's
  // headers (a compile, addr2line): /usr/bin, /usr/include, /usr/lib/gcc.
  kToolchain,
};

// The read-only system mounts for `needs`, at their own paths, each
// optional (skipped where the host lacks it). `extra_dirs` are absolute
// host directories added the same way (a compiler installed outside
// /usr: its prefix). Not /usr, /usr/share, /usr/local, /etc, /opt or
// /home as wholes.
std::vector<SandboxMount> system_mounts(SystemNeeds needs, const std::vector<std::string>& extra_dirs = {});

// The directories that hold the shared libraries this process has loaded
// (libc, libstdc++, ...), links resolved, computed once: where the system
// keeps the libraries a runner links (/usr/lib/x86_64-linux-gnu on Debian).
const std::vector<std::string>& shared_library_directories();

}  // namespace judge
