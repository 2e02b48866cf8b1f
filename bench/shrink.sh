#!/usr/bin/env bash
# How far failing cases shrink: judges every known-wrong solution
# (solutions/*/wrong/*.hpp) with the default shrinking budget and prints,
# per solution, each shrunk example's line of the text report ("shrunk from
# CASE, SIZES:") or why its failure was not shrunk. The figures in
# docs/judging.md come from it.
# Usage: bench/shrink.sh [PROBLEM...]   (default: every problem)
#   JUDGE=PATH      another build of the judge
#   BUDGET=SECONDS  the shrinking budget (default: the judge's, 1 s)
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
judge=${JUDGE:-$root/build/judge/judge}
problems=("$@")
if [ ${#problems[@]} -eq 0 ]; then
  for dir in "$root"/solutions/*/; do problems+=("$(basename "$dir")"); done
fi
budget=()
[ -z "${BUDGET:-}" ] || budget=(--shrink-budget "$BUDGET")
for problem in "${problems[@]}"; do
  for file in "$root/solutions/$problem"/wrong/*.hpp; do
    echo "$problem/$(basename "$file" .hpp)"
    status=0
    out=$(cd "$root" && JUDGE_ROOT="$root" "$judge" run "$problem" --solution "$file" --no-cache "${budget[@]}" 2>&1) ||
      status=$?
    if [ "$status" -gt 1 ]; then
      echo "    judge error ($status): $(tail -1 <<<"$out")"
      continue
    fi
    grep -E '^  (shrunk from|not shrunk)' <<<"$out" | sed 's/^  /    /' || echo "    (no failure shrunk)"
  done
done
