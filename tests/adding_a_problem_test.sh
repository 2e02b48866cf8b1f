#!/usr/bin/env bash
# Follows docs/adding-a-problem.md in a temporary copy of the repository:
# scaffolds the greedy problem and the min_p sampler, writes every file the
# page shows, and requires `judge validate` to pass on both and a known
# mistake of each to be caught.
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
"$judge_binary" new min_p

# Write each ```lang file=PATH block of the page to PATH.
awk -v root="$root" '
  /^```[a-z]+ file=/ { split($2, parts, "="); path = root "/" parts[2]; dir = path; sub(/\/[^\/]*$/, "", dir); system("mkdir -p \"" dir "\""); printf "" > path; writing = 1; next }
  /^```/ && writing { close(path); writing = 0; next }
  writing { print >> path }
' "$source_dir/docs/adding-a-problem.md"
rm "$root/solutions/greedy/wrong/returns_empty.hpp" "$root/solutions/min_p/wrong/returns_empty.hpp"

"$judge_binary" validate greedy | tee "$root/after.txt"
grep -q "greedy: valid" "$root/after.txt"
result=$("$judge_binary" run greedy --solution "$root/solutions/greedy/wrong/ties_to_higher_id.hpp" --format json || true)
echo "$result" | grep -q '"verdict":"wrong_answer"'
echo "$result" | grep -q 'ties must go to the lower id'

# The sampler: validate, a mistake only the distribution test sees, and try.
"$judge_binary" validate min_p | tee "$root/min_p.txt"
grep -q "min_p: valid" "$root/min_p.txt"
result=$("$judge_binary" run min_p --solution "$root/solutions/min_p/wrong/uniform_among_kept.hpp" --format json || true)
grep -q '"verdict":"wrong_answer"' <<<"$result"
grep -q 'the sampler picks a kept token uniformly' <<<"$result"
"$judge_binary" try min_p --reference --op min_p_sample --input '{logits: [2.0, 1.0, 0.1, -1.0], min_p: 0.1}' \
  >"$root/try.txt"
grep -q "your draws fit the expected probabilities" "$root/try.txt"
echo "adding-a-problem walkthrough: ok"
