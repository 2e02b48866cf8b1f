#!/usr/bin/env bash
# Follows docs/adding-a-problem.md in a temporary copy of the repository:
# scaffolds the greedy problem, writes every file the page shows, and
# requires `judge validate greedy` to pass and a known mistake to be caught.
# Usage: adding_a_problem_test.sh JUDGE_BINARY SOURCE_DIR
set -euo pipefail
judge_binary=$1
source_dir=$2
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
cp -r "$source_dir/problems" "$source_dir/solutions" "$source_dir/harness" "$root/"
export JUDGE_ROOT=$root JUDGE_WORKSPACE=$root/workspace

"$judge_binary" new greedy
# A fresh scaffold builds and judges, but validate lists its TODOs.
"$judge_binary" run greedy --reference --format json >/dev/null
if "$judge_binary" validate greedy >"$root/before.txt"; then
  echo "validate passed on an unfilled scaffold"; exit 1
fi
grep -q "TODO(s) left to fill in" "$root/before.txt"

# Write each ```lang file=PATH block of the page to PATH.
awk -v root="$root" '
  /^```[a-z]+ file=/ { split($2, parts, "="); path = root "/" parts[2]; dir = path; sub(/\/[^\/]*$/, "", dir); system("mkdir -p \"" dir "\""); printf "" > path; writing = 1; next }
  /^```/ && writing { close(path); writing = 0; next }
  writing { print >> path }
' "$source_dir/docs/adding-a-problem.md"
rm "$root/solutions/greedy/wrong/returns_empty.hpp"

"$judge_binary" validate greedy | tee "$root/after.txt"
grep -q "greedy: valid" "$root/after.txt"
result=$("$judge_binary" run greedy --solution "$root/solutions/greedy/wrong/ties_to_higher_id.hpp" --format json || true)
echo "$result" | grep -q '"verdict":"wrong_answer"'
echo "$result" | grep -q 'ties must go to the lower id'
echo "adding-a-problem walkthrough: ok"
