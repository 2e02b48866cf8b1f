#!/usr/bin/env bash
# Prints the CPU time of a cold build of the judge: a fresh build directory,
# no compiler cache, one build of TARGET per configuration, CPU time (user
# and system, every compiler and linker process counted) and wall time each.
# A configuration is a build type, optionally followed by CMake options:
# "Release -DJUDGE_UNITY_BUILD=OFF" (quoted, one argument).
# CPU time is the figure that transfers between machines and loads; wall
# time is CPU time over the cores only on an idle machine.
# Usage: bench/cold_build.sh [CONFIGURATION...]   (default: Release, the default build)
#   TARGET=NAME   the ninja target (default: judge; `all` adds the tests)
#   RUNS=N        builds per configuration, alternating between them (default 1);
#                 with several, the median of each figure
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
target="${TARGET:-judge}"
runs="${RUNS:-1}"
configurations=("$@")
[ ${#configurations[@]} -gt 0 ] || configurations=(Release)
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

# One cold build of a configuration: "USER SYSTEM WALL" in seconds.
cold_build() {
  local options dir="$scratch/build"
  read -ra options <<<"$1"
  rm -rf "$dir"
  cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE="${options[0]}" "${options[@]:1}" >"$scratch/configure.log" 2>&1 ||
    { cat "$scratch/configure.log" >&2; exit 2; }
  # The build runs in a child shell whose children's times `times` reports
  # (into a file: in a pipeline, `times` would run in a subshell of its own).
  CCACHE_DISABLE=1 bash -c '
    start=$(date +%s.%N)
    ninja -C "$1" "$2" >"$3" 2>&1 || { cat "$3" >&2; exit 2; }
    end=$(date +%s.%N)
    times >"$3.times"
    child=$(tail -1 "$3.times")
    user=$(echo "$child" | awk "{print \$1}"); sys=$(echo "$child" | awk "{print \$2}")
    to_s() { echo "$1" | awk -F"m" "{sub(/s/, \"\", \$2); print \$1 * 60 + \$2}"; }
    echo "$(to_s "$user") $(to_s "$sys") $(awk "BEGIN {print $end - $start}")"
  ' _ "$dir" "$target" "$scratch/build.log"
  rm -rf "$dir"
}

median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

declare -A figures
for ((run = 1; run <= runs; ++run)); do
  for config in "${configurations[@]}"; do
    row=$(cold_build "$config") || exit 2  # the build's output is on stderr already
    figures[$config]+="$row"$'\n'
  done
done
printf '%-40s %10s %10s %10s %10s   (target %s, %d run(s), %s cores)\n' \
  "configuration" "user s" "system s" "CPU s" "wall s" "$target" "$runs" "$(nproc)"
for config in "${configurations[@]}"; do
  rows="${figures[$config]}"
  user=$(awk 'NF {print $1}' <<<"$rows" | median)
  sys=$(awk 'NF {print $2}' <<<"$rows" | median)
  cpu=$(awk 'NF {print $1 + $2}' <<<"$rows" | median)
  wall=$(awk 'NF {print $3}' <<<"$rows" | median)
  printf '%-40s %10.0f %10.0f %10.0f %10.0f\n' "$config" "$user" "$sys" "$cpu" "$wall"
done
if [ ${#configurations[@]} -ge 2 ]; then
  first="${configurations[0]}"
  for config in "${configurations[@]:1}"; do
    ratio=$(paste <(awk 'NF {print $1 + $2}' <<<"${figures[$config]}") <(awk 'NF {print $1 + $2}' <<<"${figures[$first]}") |
      awk '{print $1 / $2}' | median)
    printf 'CPU time %s / %s: %.2f (median of the paired ratios)\n' "$config" "$first" "$ratio"
  done
fi
