#!/usr/bin/env bash
# Grades the known solutions of every problem twice with `judge grade
# --jobs` at twice the cores: once on a quiet machine, once while CPU hogs
# (HOGS per core, each a busy loop) and a memory hog (a quarter of the
# available memory, at most 4 GiB, touched over and over) run beside it.
# Each run has a cache of its own, so the compiles are under load too.
# Prints, per problem, the submissions whose verdict changed, and the load
# average the loaded run saw; exits 1 when any verdict changed.
# Usage: grade_under_load.sh JUDGE SOURCE_DIR HOGS_PER_CORE [all|sensitive]
#   all        every file of solutions/PROBLEM/ (reference, accepted, wrong)
#   sensitive  the reference, every accepted file, and the known mistakes
#              whose verdict is time_limit_exceeded: those that load would
#              change first
set -euo pipefail
judge=$1 source=$2 hogs_per_core=$3 selection=${4:-sensitive}
cores=$(nproc)
jobs=$((2 * cores))
work=$(mktemp -d)
hogs=()
stop_hogs() {
  for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${hogs[@]}"; do wait "$pid" 2>/dev/null || true; done
  hogs=()
}
trap 'stop_hogs; rm -rf "$work"' EXIT

start_hogs() {
  local count=$((hogs_per_core * cores))
  for _ in $(seq "$count"); do
    (while :; do :; done) &
    hogs+=($!)
  done
  local available_kb
  available_kb=$(awk '/MemAvailable/ {print $2}' /proc/meminfo)
  local hog_mb=$((available_kb / 4 / 1024))
  [ "$hog_mb" -le 4096 ] || hog_mb=4096
  python3 -c "
import time
block = bytearray($hog_mb << 20)
while True:
    for i in range(0, len(block), 4096):
        block[i] = (block[i] + 1) & 255
    time.sleep(0.1)
" &
  hogs+=($!)
}

# The class of problem $1 in $2, as the selection says.
gather_class() {
  local problem=$1 into=$2 dir=$source/solutions/$problem
  mkdir -p "$into"
  cp "$dir/reference.hpp" "$into/reference.hpp"
  for file in "$dir"/accepted/*; do [ -f "$file" ] && cp "$file" "$into/accepted_$(basename "$file")"; done
  for file in "$dir"/wrong/*; do
    [ -f "$file" ] || continue
    if [ "$selection" = all ] ||
      grep -A1 -F "file: wrong/$(basename "$file")" "$dir/solutions.yaml" | grep -q "verdict: time_limit_exceeded"; then
      cp "$file" "$into/wrong_$(basename "$file")"
    fi
  done
}

# The submission,verdict pairs of a report.
verdicts() { python3 -c "
import json, sys
rows = json.load(open(sys.argv[1]))['submissions']
for row in rows: print(row['submission'], row['verdict'])
" "$1/summary.json"; }

changed=0
for dir in "$source"/solutions/*/; do
  problem=$(basename "$dir")
  [ -f "$dir/solutions.yaml" ] || continue
  gather_class "$problem" "$work/$problem/class"
  for run in quiet loaded; do
    [ "$run" = loaded ] && start_hogs
    status=0
    JUDGE_CACHE_DIR="$work/$problem/cache-$run" "$judge" grade "$problem" "$work/$problem/class" --jobs "$jobs" --stop-after-timeouts \
      --out "$work/$problem/$run" >"$work/$problem/$run.log" 2>&1 || status=$?
    load=$(cut -d' ' -f1 /proc/loadavg)
    [ "$run" = loaded ] && stop_hogs
    if [ "$status" != 0 ]; then
      echo "$problem: the $run grade exited $status"
      tail -n 5 "$work/$problem/$run.log"
      changed=1
      continue 2
    fi
  done
  differences=$(diff <(verdicts "$work/$problem/quiet") <(verdicts "$work/$problem/loaded") || true)
  count=$(ls "$work/$problem/class" | wc -l)
  if [ -n "$differences" ]; then
    changed=1
    echo "$problem: verdicts changed under load (load average $load, $count submissions):"
    echo "$differences" | sed 's/^/  /'
    # What each changed submission was told, in both runs.
    for name in $(echo "$differences" | awk '/^[<>]/ { print $2 }' | sort -u); do
      for run in quiet loaded; do
        python3 -c "
import json, sys
for row in json.load(open(sys.argv[1]))['submissions']:
    if row['submission'] == sys.argv[2]:
        print('  ' + sys.argv[3] + ' ' + sys.argv[2] + ': ' + str(row.get('first_failing_case')) + ': ' + str(row.get('message', ''))[:600])
" "$work/$problem/$run/summary.json" "$name" "$run"
      done
    done
  else
    echo "$problem: $count verdicts the same under load (load average $load)"
  fi
done
exit "$changed"
