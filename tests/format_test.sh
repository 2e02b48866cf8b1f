#!/usr/bin/env bash
# The project's own C++ (the judge, the harness, the tests, the bench) is
# formatted as .clang-format says: clang-format changes nothing. Solutions
# and test fixtures are left as their authors wrote them: they stand for
# learners' files. Fix with: clang-format -i FILE.
# Usage: tests/format_test.sh SOURCE_DIR
set -euo pipefail
source_dir=$1
cd "$source_dir"
command -v clang-format >/dev/null || { echo "clang-format is missing: bin/setup --all-targets installs it" >&2; exit 1; }
mapfile -t files < <(git ls-files 'judge/*.cpp' 'judge/*.hpp' 'harness/*.cpp' 'harness/*.hpp' 'tests/*.cpp' \
  'tests/*.hpp' 'bench/*.cpp' | grep -v '^tests/fixtures/')
[ "${#files[@]}" -gt 50 ] || { echo "only ${#files[@]} C++ files found under $source_dir" >&2; exit 1; }
unformatted=()
for file in "${files[@]}"; do
  clang-format --dry-run -Werror "$file" >/dev/null 2>&1 || unformatted+=("$file")
done
if [ "${#unformatted[@]}" -gt 0 ]; then
  echo "${#unformatted[@]} of ${#files[@]} files differ from .clang-format (clang-format -i FILE fixes each):" >&2
  printf '  %s\n' "${unformatted[@]}" >&2
  exit 1
fi
echo "${#files[@]} files formatted as .clang-format says"
