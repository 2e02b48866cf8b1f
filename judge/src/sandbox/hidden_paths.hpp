// The judge's own files, which no sandboxed child may see: its problems,
// solutions and hidden cases, its caches, the learner's workspace, a
// graded folder and its report. Whatever mount of a child's view holds one
// of them (an installed judge under /usr/share, say, beneath an allowed
// directory), the view hides it: with a private root an empty read-only
// file system is mounted over it, and with Landlock alone the allowed
// directory is allowed entry by entry around it (view.hpp).
#pragma once

#include <string>
#include <vector>

namespace judge {

// Adds `path` (a directory or file; links resolved; a path that does not
// exist yet is kept as given, made absolute) to the paths hidden from
// every sandboxed child started from now on. Thread-safe.
void hide_from_sandboxes(const std::string& path);

// Every path hidden so far, absolute and with links resolved, leaving out
// those inside another (hiding that one hides them).
std::vector<std::string> hidden_paths();

// True when `path` is `directory` or lies beneath it (both absolute,
// compared by their components, so /usr/lib2 is not within /usr/lib).
bool path_is_within(const std::string& path, const std::string& directory);

}  // namespace judge
