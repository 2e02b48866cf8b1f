// Assembling a Gradescope autograder archive (course/gradescope_export.hpp).
#include "course/gradescope_export.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>

#include "judging/problem_catalog.hpp"
#include "package/layout.hpp"
#include "report/reporter.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"
#include "util/installation.hpp"
#include "util/text.hpp"
#include "util/zip_writer.hpp"

namespace judge {
namespace fs = std::filesystem;
namespace {
constexpr const char* kSourceDir = "judge";  // in the archive

// What building and running the judge needs on Ubuntu, by Debian package
// name (bin/setup installs the same on Debian, with the test suite's too).
constexpr const char* kPackages =
    "g++ cmake ninja-build pkg-config libfmt-dev libyaml-cpp-dev libeigen3-dev libcli11-dev nlohmann-json3-dev "
    "libssl-dev libseccomp-dev libzip-dev zlib1g-dev libcpp-httplib-dev libboost-math-dev";

constexpr const char* kSetupScript = R"SH(#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image
# (its Ubuntu base image): installs what the judge needs, builds it, and
# judges each problem's reference once, which proves the build and leaves
# the compiled runners in the image. Written by `judge export gradescope`.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source=$here/judge
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends @PACKAGES@
# Ubuntu 22.04's CMake is older than the judge asks for: then one from PyPI.
needed=$(sed -n 's/^cmake_minimum_required(VERSION \([0-9.]*\)).*/\1/p' "$source/CMakeLists.txt")
have=$(cmake --version | awk 'NR == 1 { print $3 }')
if [ "$(printf '%s\n%s\n' "$needed" "$have" | sort -V | head -n 1)" != "$needed" ]; then
  apt-get install -y -qq --no-install-recommends python3-pip
  python3 -m pip install --quiet cmake || python3 -m pip install --quiet --break-system-packages cmake
  hash -r
fi
cmake -S "$source" -B "$source/build" -G Ninja -DJUDGE_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=Release
cmake --build "$source/build" --target judge
for problem in @PROBLEMS@; do
  JUDGE_ROOT=$source "$source/build/judge/judge" run "$problem" --reference --format json >/dev/null
done
chmod +x "$here/run_autograder"
)SH";

constexpr const char* kRunScript = R"SH(#!/usr/bin/env bash
# Gradescope runs this once per submission: for each problem it judges the
# submission's PROBLEM.hpp (found anywhere in the upload), and writes
# /autograder/results/results.json, a test per case worth a point. A
# missing file fails that problem's cases with a message naming the file.
# Written by `judge export gradescope`; JUDGE_AUTOGRADER_ROOT replaces
# /autograder (to try it outside Gradescope).
set -uo pipefail
root=${JUDGE_AUTOGRADER_ROOT:-/autograder}
source=$root/source/judge
problems=(@PROBLEMS@)
visibility=@VISIBILITY@
mkdir -p "$root/results"
results=$root/results/results.json
workspace=$(mktemp -d)
trap 'rm -rf "$workspace"' EXIT

for problem in "${problems[@]}"; do
  found=$(find "$root/submission" -type f -name "$problem.hpp" 2>/dev/null | LC_ALL=C sort | head -n 1)
  if [ -n "$found" ]; then
    cp "$found" "$workspace/$problem.hpp"
  else
    printf '#error "no %s.hpp in your submission: upload a file of that name"\n' "$problem" >"$workspace/$problem.hpp"
  fi
done
# The judge writes results.json itself, a score of 0 with the reason
# included when it cannot judge; its stderr goes to the autograder's log.
JUDGE_ROOT=$source JUDGE_WORKSPACE=$workspace "$source/build/judge/judge" run "${problems[@]}" \
  --format gradescope --hidden-visibility "$visibility" >"$workspace/results.json"
status=$?
if [ -s "$workspace/results.json" ]; then
  cp "$workspace/results.json" "$results"
else
  printf '{"score": 0, "output": "The autograder could not start the judge (status %d)."}\n' "$status" >"$results"
fi
)SH";

std::string filled(std::string text, const std::string& key, const std::string& value) {
  for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + value.size()))
    text.replace(at, key.size(), value);
  return text;
}

// Every regular file under `dir`, added as PREFIX/<its path below dir>.
void add_tree(ZipWriter& zip, const fs::path& dir, const std::string& prefix, std::size_t* files) {
  std::vector<fs::path> found;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file()) found.push_back(entry.path());
  std::sort(found.begin(), found.end());  // the same archive for the same files
  for (const fs::path& file : found) {
    std::optional<std::string> content = read_file(file.string());
    if (!content) throw JudgeFault{fmt::format("export: cannot read {}", display_path(file.string()))};
    zip.add(prefix + "/" + fs::relative(file, dir).generic_string(), std::move(*content));
    ++*files;
  }
}

void add_file(ZipWriter& zip, const fs::path& file, const std::string& name, std::size_t* files) {
  std::optional<std::string> content = read_file(file.string());
  if (!content) throw JudgeFault{fmt::format("export: cannot read {}", display_path(file.string()))};
  zip.add(name, std::move(*content));
  ++*files;
}

// The judge's own source: beside an installed judge (share/judge) or its
// checkout. Throws when only a binary is there.
fs::path judge_source() {
  fs::path source = this_installation().root;
  if (source.empty() || !fs::is_regular_file(source / "CMakeLists.txt") || !fs::is_directory(source / "judge" / "src"))
    throw JudgeFault{
        "export: the judge's source is not beside this judge (a checkout, or an installation made by cmake --install, "
        "has it); the autograder builds the judge from it"};
  return source;
}
}  // namespace

std::vector<std::string> export_gradescope(const Paths& paths, const GradescopeExport& options) {
  if (options.slugs.empty()) throw JudgeFault{"export: name at least one PROBLEM"};
  std::vector<std::string> slugs;
  for (const std::string& slug : options.slugs) {
    ProblemCatalog(paths).load(slug);  // an autograder of a broken problem helps nobody
    if (std::find(slugs.begin(), slugs.end(), slug) == slugs.end()) slugs.push_back(slug);
  }
  const fs::path source = judge_source();
  // A course's own harness (JUDGE_ROOT) when it is a whole one, else the judge's.
  fs::path harness = fs::path(paths.root) / "harness";
  if (!fs::is_regular_file(harness / "CMakeLists.txt")) harness = source / "harness";

  ZipWriter zip(options.out);
  std::size_t files = 0;
  const std::string base = kSourceDir;
  add_file(zip, source / "CMakeLists.txt", base + "/CMakeLists.txt", &files);
  add_tree(zip, source / "judge", base + "/judge", &files);
  add_file(zip, harness / "CMakeLists.txt", base + "/harness/CMakeLists.txt", &files);
  add_tree(zip, harness / "include", base + "/harness/include", &files);
  add_tree(zip, harness / "src", base + "/harness/src", &files);
  for (const std::string& slug : slugs) {
    const Package package = package_of(paths, slug);
    add_file(zip, package.adapter, base + "/harness/problems/" + slug + ".cpp", &files);
    if (fs::is_regular_file(package.learner_bindings))
      add_file(zip, package.learner_bindings, base + "/harness/problems/" + slug + ".learner.hpp", &files);
    add_tree(zip, package.problem_dir, base + "/problems/" + slug, &files);
    add_tree(zip, package.solutions_dir, base + "/solutions/" + slug, &files);
  }
  const std::string problem_list = fmt::format("{}", fmt::join(slugs, " "));
  std::string visibility = options.hidden_visibility.empty() ? kGradescopeHiddenDefault : options.hidden_visibility;
  zip.add("setup.sh", filled(filled(kSetupScript, "@PACKAGES@", kPackages), "@PROBLEMS@", problem_list), true);
  zip.add("run_autograder", filled(filled(kRunScript, "@PROBLEMS@", problem_list), "@VISIBILITY@", visibility), true);
  zip.close();
  return {fmt::format("{}: a Gradescope autograder for {}", display_path(options.out), fmt::join(slugs, ", ")),
          "  setup.sh        installs the packages on Gradescope's Ubuntu image and builds the judge",
          "  run_autograder  judges /autograder/submission/PROBLEM.hpp into /autograder/results/results.json",
          fmt::format("  judge/          the judge's source and the problems ({} files); hidden cases {}", files,
                      visibility)};
}

}  // namespace judge
