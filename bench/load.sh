#!/usr/bin/env bash
# Prints the largest load at which `judge grade` still gives every known
# solution of every problem the verdict it gives on a quiet machine: for
# 1, 2, 4, ... CPU hogs per core (and a memory hog), it grades every file of
# solutions/PROBLEM/ at twice the cores, quiet and loaded
# (tests/grade_under_load.sh), and prints each level's load average and
# verdicts changed, stopping at the first level where one changes.
# Usage: bench/load.sh [MAX_HOGS_PER_CORE]   (default 8)
#   JUDGE=PATH   another build of the judge
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
if [ -z "${JUDGE:-}" ]; then
  "$root/bin/setup"
  judge="$root/build/judge/judge"
else
  judge=$JUDGE
fi
max=${1:-8}
largest=none
for hogs in 1 2 4 8 16 32; do
  [ "$hogs" -le "$max" ] || break
  echo "== $hogs CPU hogs per core ($(nproc) cores), judge grade --jobs $((2 * $(nproc)))"
  if "$root/tests/grade_under_load.sh" "$judge" "$root" "$hogs" all; then
    largest="$hogs hogs per core"
  else
    break
  fi
done
echo "largest load with every verdict as on a quiet machine: $largest"
