// A seal at the end of every cached runner: a marker, the runner's length
// and the SHA-256 of its bytes, appended after its last byte (the loader
// and addr2line read an executable by the offsets in its headers and never
// look past them). A runner cut short (a full disk, a killed judge, a
// crash before its blocks reached the disk) or changed is told from the one
// that was stored, and built again.
#pragma once

#include <string>

namespace judge {

// Appends the seal to the freshly linked runner at `path`. Throws
// JudgeFault naming it when it cannot be read or written.
void seal_runner(const std::string& path);

// True when `path` is a regular file ending in a seal whose length is the
// rest of the file's and whose SHA-256 is that of the rest's bytes. Reads
// the whole file (about a millisecond per megabyte).
bool runner_seal_holds(const std::string& path);

}  // namespace judge
