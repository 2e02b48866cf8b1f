// Where the judge's own files are, found from where its binary is (not from
// paths written into it when it was built), so that an installed judge, a
// moved checkout and a copied one each use the files beside them.
//
// Two layouts are recognised, from the binary's directory D:
//   installed  D = PREFIX/bin: PREFIX/share/judge holds problems/,
//              solutions/ and harness/; PREFIX/lib/judge holds the harness
//              library; runners are cached per user ($XDG_CACHE_HOME/judge)
//              and the workspace is per user ($XDG_DATA_HOME/judge/workspace).
//   build tree D = BUILD/judge (or BUILD/tests): BUILD/harness holds the
//              library, BUILD/runners the cache; the problems are in the
//              nearest directory above D that has problems/ and
//              harness/include (a checkout with its build inside), else in
//              the source directory BUILD/CMakeCache.txt names.
#pragma once

#include <string>

namespace judge {

struct Installation {
  std::string root;             // problems/, solutions/, harness/ (and the judge's source)
  std::string harness_library;  // libjudge_harness.a
  std::string cache_dir;        // the default cache of runners and results
  std::string workspace_dir;    // the default workspace; empty: ROOT/workspace
  bool installed = false;       // the PREFIX layout
};

// The installation of the running binary (/proc/self/exe), found once.
// Its root is empty when neither layout fits (Paths::discover then asks
// for JUDGE_ROOT).
const Installation& this_installation();

// The installation a binary at `executable` belongs to (testable without
// moving binaries); `root` is empty when no problems were found.
Installation installation_of(const std::string& executable);

}  // namespace judge
